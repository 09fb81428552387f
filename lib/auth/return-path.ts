/**
 * Where /sign-in may send the browser afterwards (its `next`): an admin page of this app, nothing else. A path
 * that another origin could be read from (`//host`, `https:`, a backslash, which browsers read as `/`,
 * whitespace) sends to /admin instead.
 */
export function safeReturnPath(next: string | undefined): string {
  return next && /^\/admin(?:[/?#]|$)/.test(next) && !/[\\\s]|\/\//.test(next) ? next : "/admin";
}
