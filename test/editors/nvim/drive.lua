-- Drives Neovim's built-in LSP client headless against the Catalog Lens server:
--   nvim --headless --clean -u drive.lua
-- with CL_SERVER (the server's command line, JSON array), CL_URL (the catalog), CL_ROOT (a copy of
-- examples/) and CL_OUT (where the results go, JSON). Each step is logged on stderr.
--
-- The first part is the configuration a user writes (docs/editors.md): vim.lsp.start where Neovim
-- has it (0.8+), else vim.lsp.start_client and buf_attach_client (0.7, Debian 12's Neovim).

local server_cmd = vim.fn.json_decode(os.getenv('CL_SERVER'))
local url = os.getenv('CL_URL')
local root = os.getenv('CL_ROOT')
local out = os.getenv('CL_OUT')

local function log(...)
  io.stderr:write('[nvim] ' .. string.format(...) .. '\n')
end

-- What the server published, as it sent it (LSP diagnostics, with their data for code actions).
local published = {}

local catalog_lens_settings = { url = url }
local config = {
  name = 'catalog_lens',
  cmd = server_cmd,
  root_dir = root,
  -- Answered to workspace/configuration (Neovim 0.8+ declares it) ...
  settings = { catalogLens = catalog_lens_settings },
  -- ... and given at initialize, for Neovim 0.7, which does not.
  init_options = { settings = catalog_lens_settings },
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, cfg)
      published[result.uri] = result.diagnostics
      return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, cfg)
    end,
  },
}

local client_id
local function attach(bufnr)
  if vim.lsp.start then
    client_id = vim.lsp.start(config, { bufnr = bufnr })
  else
    client_id = client_id or vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
end

-- The steps.

local results = { version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch) }

local function open(rel, filetype)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. rel))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = filetype
  attach(bufnr)
  return bufnr, vim.uri_from_bufnr(bufnr)
end

local function codes(diagnostics)
  local seen = {}
  for _, d in ipairs(diagnostics) do
    table.insert(seen, d.code)
  end
  table.sort(seen)
  return seen
end

local function wait_diagnostics(uri, code)
  local ok = vim.wait(30000, function()
    for _, d in ipairs(published[uri] or {}) do
      if d.code == code then
        return true
      end
    end
    return false
  end, 50)
  if not ok then
    local seen = {}
    for u, ds in pairs(published) do
      table.insert(seen, u .. ': ' .. table.concat(codes(ds), ', '))
    end
    error('no ' .. code .. ' diagnostic for ' .. uri .. ' within 30 s; published: ' .. table.concat(seen, '; '))
  end
  return published[uri]
end

--- The 0-based line and column of `needle` (plus `delta`) in the buffer.
local function find(bufnr, needle, delta)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return { line = i - 1, character = col - 1 + (delta or 0) }
    end
  end
  error('not found: ' .. needle)
end

local function hover(bufnr, position)
  local client = vim.lsp.get_client_by_id(client_id)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = position }
  local r = client.request_sync('textDocument/hover', params, 10000, bufnr)
  if not r or r.err then
    error('hover failed: ' .. vim.inspect(r))
  end
  local contents = r.result and r.result.contents
  return type(contents) == 'table' and (contents.value or '') or tostring(contents or '')
end

local function run()
  log('Neovim %s, server %s, catalog %s', results.version, table.concat(server_cmd, ' '), url)

  local py, py_uri = open('pipelines/features.py', 'python')
  log('opened %s (client %s)', py_uri, tostring(client_id))
  local py_diags = wait_diagnostics(py_uri, 'unknown-urn')
  results.python_codes = codes(py_diags)
  log('python diagnostics: %s', table.concat(results.python_codes, ', '))
  results.diagnostic_count_in_buffer = #vim.diagnostic.get(py)
  log('vim.diagnostic shows %d of them in the buffer', results.diagnostic_count_in_buffer)

  results.hover_dataset = hover(py, find(py, 'USERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users', 50))
  log('hover on db.users:\n%s', results.hover_dataset)
  results.hover_unknown = hover(py, find(py, 'GHOST = "urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost', 50))
  log('hover on db.ghost:\n%s', results.hover_unknown)

  local yml, yml_uri = open('catalog/datasets.yml', 'yaml')
  log('opened %s', yml_uri)
  local yml_diags = wait_diagnostics(yml_uri, 'description-mismatch')
  results.yaml_codes = codes(yml_diags)
  log('yaml diagnostics: %s', table.concat(results.yaml_codes, ', '))

  local mismatch
  for _, d in ipairs(yml_diags) do
    if d.code == 'description-mismatch' then
      mismatch = d
    end
  end
  local client = vim.lsp.get_client_by_id(client_id)
  local r = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = yml_uri },
    range = mismatch.range,
    context = { diagnostics = { mismatch } },
  }, 10000, yml)
  if not r or r.err then
    error('codeAction failed: ' .. vim.inspect(r))
  end
  results.actions = {}
  local push
  for _, a in ipairs(r.result or {}) do
    table.insert(results.actions, a.title)
    if a.title == 'Push description to catalog' then
      push = a
    end
  end
  log('code actions: %s', table.concat(results.actions, ' | '))
  if not push then
    error('no "Push description to catalog" action')
  end
  -- What vim.lsp.buf.code_action does with a chosen action that carries a server command.
  local cmd = push.command
  log('workspace/executeCommand %s %s', cmd.command, vim.fn.json_encode(cmd.arguments))
  local e = client.request_sync('workspace/executeCommand', { command = cmd.command, arguments = cmd.arguments }, 20000, yml)
  if not e or e.err then
    error('executeCommand failed: ' .. vim.inspect(e))
  end
  results.command = cmd.command
  results.write = e.result
  log('result: %s', vim.fn.json_encode(e.result))

  -- The server checks the open documents again: the mismatch goes away.
  local gone = vim.wait(20000, function()
    for _, d in ipairs(published[yml_uri] or {}) do
      if d.code == 'description-mismatch' then
        return false
      end
    end
    return true
  end, 50)
  results.mismatch_gone = gone
  log('description-mismatch gone after the write: %s', tostring(gone))
end

local ok, err = xpcall(run, debug.traceback)
results.ok = ok
results.error = ok and vim.NIL or tostring(err)
if not ok then
  log('FAILED: %s', tostring(err))
end
local f = assert(io.open(out, 'w'))
f:write(vim.fn.json_encode(results))
f:close()
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(2000, function()
  return #vim.lsp.get_active_clients() == 0
end, 50)
vim.cmd('qa!')
