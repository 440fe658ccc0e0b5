;;; drive.el --- Drives Emacs' eglot headless against the Catalog Lens server  -*- lexical-binding: t -*-
;;
;;   emacs --batch -q -l drive.el
;;
;; with CL_SERVER (the server's command line, JSON array), CL_URL (the catalog), CL_ROOT (a copy of
;; examples/) and CL_OUT (where the results go, JSON).  Each step is logged on stderr.
;;
;; The first part is the configuration a user writes (docs/editors.md); the rest drives eglot as
;; a user would: its own connection for hovers and code actions, its own command runner
;; (eglot-execute-command, what eglot-code-actions calls for a chosen action's command).

;; Debian's site-start (kept by -q) puts elpa-eglot on the package path; activate it and its newer
;; project and xref.
(require 'package)
(package-initialize)
(require 'eglot)
(require 'json)

(defvar cl-server (append (json-read-from-string (getenv "CL_SERVER")) nil))
(defvar cl-url (getenv "CL_URL"))
(defvar cl-root (file-name-as-directory (getenv "CL_ROOT")))
(defvar cl-out (getenv "CL_OUT"))

(defun cl-log (fmt &rest args)
  (princ (concat "[emacs] " (apply #'format fmt args) "\n") #'external-debugging-output))

;;; The configuration.

;; Emacs 28 has no YAML mode of its own; yaml-mode (MELPA) or yaml-ts-mode (Emacs 29) do the same here.
(unless (fboundp 'yaml-mode)
  (define-derived-mode yaml-mode text-mode "YAML"))
(add-to-list 'auto-mode-alist '("\\.ya?ml\\'" . yaml-mode))

;; One entry per major mode: eglot 1.9 sends one languageId per server, from its first mode (newer
;; eglot takes `((python-mode :language-id "python") (yaml-mode :language-id "yaml"))`).
(add-to-list 'eglot-server-programs `(python-mode . ,cl-server))
(add-to-list 'eglot-server-programs `(yaml-mode . ,cl-server))
(setq-default eglot-workspace-configuration `((:catalogLens . (:url ,cl-url))))

;; The demo copy is no version-controlled project: tell project.el where its root is.
(add-hook 'project-find-functions (lambda (_dir) (cons 'transient cl-root)))

;;; The steps.

(defvar cl-published (make-hash-table :test #'equal)
  "What the server published, by file name, as eglot received it.")

(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (puthash (eglot--uri-to-path (plist-get params :uri))
                         (append (plist-get params :diagnostics) nil)
                         cl-published))))

(defun cl-codes (diagnostics)
  (sort (mapcar (lambda (d) (format "%s" (plist-get d :code))) diagnostics) #'string<))

(defun cl-open (rel)
  (find-file (expand-file-name rel cl-root))
  ;; The first file of a major mode starts its server (M-x eglot); eglot then manages every
  ;; later file of that mode as soon as it is visited.
  (unless (eglot-current-server)
    (apply #'eglot (eglot--guess-contact)))
  (unless (eglot-managed-p) (error "eglot does not manage %s" (buffer-file-name)))
  (current-buffer))

(defun cl-wait-diagnostics (code)
  (let ((file (buffer-file-name))
        (deadline (+ (float-time) 30)))
    (while (and (not (member code (cl-codes (gethash file cl-published))))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (member code (cl-codes (gethash file cl-published)))
      (error "No %s diagnostic for %s within 30 s; published: %S"
             code file (cl-codes (gethash file cl-published))))
    (gethash file cl-published)))

(defun cl-hover-at (needle delta)
  (goto-char (point-min))
  (search-forward needle)
  (goto-char (+ (match-beginning 0) delta))
  (let* ((r (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                             (eglot--TextDocumentPositionParams)))
         (contents (plist-get r :contents)))
    (if (stringp contents) contents (or (plist-get contents :value) ""))))

(defvar cl-results nil)
(defun cl-result (key value) (push (cons key value) cl-results))

(defun cl-run ()
  (cl-log "Emacs %s, eglot %s, server %s, catalog %s" emacs-version
          (let ((desc (cadr (assq 'eglot package-alist))))
            (if desc (package-version-join (package-desc-version desc)) "?"))
          (mapconcat #'identity cl-server " ") cl-url)
  (cl-result 'version emacs-version)
  (with-current-buffer (cl-open "pipelines/features.py")
    (cl-log "opened %s (%s)" (buffer-file-name) major-mode)
    (let ((codes (cl-codes (cl-wait-diagnostics "unknown-urn"))))
      (cl-result 'python_codes (vconcat codes))
      (cl-log "python diagnostics: %s" (string-join codes ", ")))
    (let ((h (cl-hover-at "USERS = \"urn:li:dataset:(urn:li:dataPlatform:hive,db.users" 50)))
      (cl-result 'hover_dataset h)
      (cl-log "hover on db.users:\n%s" h))
    (let ((h (cl-hover-at "GHOST = \"urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost" 50)))
      (cl-result 'hover_unknown h)
      (cl-log "hover on db.ghost:\n%s" h)))
  (with-current-buffer (cl-open "catalog/datasets.yml")
    (cl-log "opened %s (%s)" (buffer-file-name) major-mode)
    (let* ((server (eglot--current-server-or-lose))
           (diags (cl-wait-diagnostics "description-mismatch"))
           (mismatch (seq-find (lambda (d) (equal (plist-get d :code) "description-mismatch")) diags))
           (actions (append (jsonrpc-request
                             server :textDocument/codeAction
                             (list :textDocument (eglot--TextDocumentIdentifier)
                                   :range (plist-get mismatch :range)
                                   :context (list :diagnostics (vector mismatch))))
                            nil))
           (titles (mapcar (lambda (a) (plist-get a :title)) actions))
           (push (seq-find (lambda (a) (equal (plist-get a :title) "Push description to catalog")) actions)))
      (cl-result 'yaml_codes (vconcat (cl-codes diags)))
      (cl-log "yaml diagnostics: %s" (string-join (cl-codes diags) ", "))
      (cl-result 'actions (vconcat titles))
      (cl-log "code actions: %s" (string-join titles " | "))
      (unless push (error "No \"Push description to catalog\" action"))
      (let* ((command (plist-get push :command))
             (name (plist-get command :command))
             (arguments (plist-get command :arguments)))
        (cl-log "workspace/executeCommand %s %s" name (json-encode arguments))
        (let ((written (eglot-execute-command server (intern name) arguments)))
          (cl-result 'command name)
          (cl-result 'write written)
          (cl-log "result: %s" (json-encode written))))
      ;; Eldoc's next hover, as after any command in an interactive Emacs. Emacs 28's jsonrpc leaves a
      ;; message that came in the same read as a request's answer (here the diagnostics published
      ;; after the write) unread until the server writes again.
      (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))
      ;; The server checks the open documents again: the mismatch goes away.
      (let ((file (buffer-file-name))
            (deadline (+ (float-time) 20)))
        ;; Asked again every half second, as eldoc asks while the cursor rests: each answer makes
        ;; jsonrpc read what came before it, so diagnostics published after the first poke are seen.
        (let ((next-poke (+ (float-time) 0.5)))
          (while (and (member "description-mismatch" (cl-codes (gethash file cl-published)))
                      (< (float-time) deadline))
            (accept-process-output nil 0.05)
            (when (> (float-time) next-poke)
              (setq next-poke (+ (float-time) 0.5))
              (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))))
        (let ((gone (not (member "description-mismatch" (cl-codes (gethash file cl-published))))))
          (cl-result 'mismatch_gone (if gone t :json-false))
          (cl-log "description-mismatch gone after the write: %s" gone))))))

(let ((failure nil))
  (condition-case err
      (cl-run)
    (error (setq failure (error-message-string err))
           (cl-log "FAILED: %s" failure)))
  (cl-result 'ok (if failure :json-false t))
  (cl-result 'error failure)
  (let ((json-encoding-pretty-print nil))
    (with-temp-file cl-out
      (set-buffer-multibyte t)
      (insert (json-encode cl-results))))
  (ignore-errors (eglot-shutdown-all))
  (kill-emacs (if failure 1 0)))
