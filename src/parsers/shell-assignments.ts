/**
 * KEY=value lines of a shell-sourced configuration file (/etc/default/*, /etc/sysconfig/*):
 * optional "export", values in single or double quotes or bare, "#" comments. Only plain
 * assignments are read; nothing is evaluated. Never throws.
 */
export function parseShellAssignments(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(raw);
    if (!match) continue;
    values.set(match[1]!, unquoteShellValue(match[2]!));
  }
  return values;
}

function unquoteShellValue(text: string): string {
  const value = text.trim();
  if (value.startsWith("'")) {
    const end = value.indexOf("'", 1);
    return end < 0 ? value.slice(1) : value.slice(1, end);
  }
  if (value.startsWith('"')) {
    let out = '';
    for (let i = 1; i < value.length; i++) {
      const c = value[i]!;
      if (c === '"') break;
      if (c === '\\' && i + 1 < value.length && '"\\$`'.includes(value[i + 1]!)) {
        out += value[++i]!;
      } else out += c;
    }
    return out;
  }
  return value.replace(/\s+#.*$/, '').trim();
}
