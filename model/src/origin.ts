/**
 * Where a token may go, in one place for the client and the server: the origin of an endpoint
 * (a token belongs to exactly one) and whether a host is this machine only.
 */

/** An http(s) URL, or undefined when the text is empty or not such a URL. */
export function parseHttpUrl(text: string): URL | undefined {
  const t = text.trim();
  if (!t || !/^https?:\/\//i.test(t)) return undefined;
  try {
    return new URL(t);
  } catch {
    // An unparsable URL has no origin: no token belongs to it.
    return undefined;
  }
}

/** `scheme://host:port` of an http(s) URL, or undefined when the text is empty or not such a URL. */
export function originOf(url: string): string | undefined {
  return parseHttpUrl(url)?.origin;
}

/** Whether both are http(s) URLs of one origin: scheme, host and port. */
export function sameOrigin(a: string, b: string): boolean {
  const o = originOf(a);
  return o !== undefined && o === originOf(b);
}

/**
 * Whether a host name or address is this machine only: `localhost` and its subdomains (RFC 6761),
 * 127.0.0.0/8, ::1 and ::ffff:127.x.x.x, with or without IPv6 brackets. One rule for the client's
 * token questions, the server's and the local catalog's own bind and Host checks.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(h) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(h)
  );
}
