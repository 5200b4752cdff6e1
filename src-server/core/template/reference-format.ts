/** The canonical spelling of a reference, as listed by `references()`: `.name`, or `["name"]` for other names. */
export function formatReference(root: string, names: readonly string[]): string {
  let text = `#${root}`;
  for (const name of names)
    text += /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
  return text;
}
