/**
 * Whether a host name or address is this machine only: `localhost` and its subdomains (RFC 6761),
 * 127.0.0.0/8, ::1 and ::ffff:127.x.x.x, with or without IPv6 brackets. One rule for the client's
 * token questions, the server's and the local catalog's own bind and Host checks.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1'
    || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}
