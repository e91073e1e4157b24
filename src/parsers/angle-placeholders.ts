/**
 * The guides write values to fill in as `<host_ip>`, `<your_nic_name>`, `<path_to_your_model>/...`,
 * unquoted. Bash reads `<host_ip>` as two redirections (input from a file named `host_ip`, output
 * to the next word), so the script a reader sees and the one bash runs differ, and the model or
 * the flag value vanishes. This pass finds those placeholders outside quotes, comments and
 * here-documents, and quotes them, so that the script is read as its author meant it and the
 * placeholder is reported where it stands. Pure and total; the line count never changes.
 */

export interface AnglePlaceholder {
  /** 1-based */
  line: number;
  /** as written: "<host_ip>" */
  token: string;
}

export interface AngleQuoted {
  text: string;
  placeholders: AnglePlaceholder[];
}

// a name, or words that start with a digit but hold a letter (`<1_OR_2_OR_3>`): never `<1>`, a file-descriptor form
const TOKEN = /^<(?:[A-Za-z_\u0080-\uffff]|\d(?=[^<>\s'"`$;&|()]*[A-Za-z_]))[^<>\s'"`$;&|()]{0,60}>/;
const HEREDOC = /^<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/;

export function quoteAnglePlaceholders(input: string): AngleQuoted {
  const placeholders: AnglePlaceholder[] = [];
  // the text is copied in the spans between placeholders, not a character at a time: appending
  // each character made a chain of a million string pieces (30 bytes of heap a byte of script)
  const pieces: string[] = [];
  let copied = 0;
  let line = 1;
  let quote: "'" | '"' | null = null;
  const heredocs: string[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '\n') {
      line++;
      i++;
      // here-document bodies start on the next line: copy them through their delimiter
      while (quote === null && heredocs.length > 0) {
        const delimiter = heredocs.shift()!;
        for (;;) {
          if (i >= input.length) break;
          const end = input.indexOf('\n', i);
          const body = input.slice(i, end === -1 ? input.length : end + 1);
          i += body.length;
          if (end !== -1) line++;
          if (body.replace(/\r?\n$/, '').replace(/^\t+/, '') === delimiter || end === -1) break;
        }
      }
      continue;
    }
    if (quote === "'") {
      if (c === "'") quote = null;
      i++;
      continue;
    }
    if (c === '\\' && i + 1 < input.length) {
      if (input[i + 1] === '\n') line++;
      i += 2;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      i++;
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(input[i - 1]!))) {
      const end = input.indexOf('\n', i);
      const comment = input.slice(i, end === -1 ? input.length : end);
      i += comment.length;
      continue;
    }
    if (c === '<') {
      const rest = input.slice(i, i + 80);
      const heredoc = HEREDOC.exec(rest);
      if (heredoc) {
        heredocs.push(heredoc[2]!);
        i += heredoc[0].length;
        continue;
      }
      const token = TOKEN.exec(rest);
      if (token && input[i - 1] !== '<') {
        placeholders.push({ line, token: token[0] });
        pieces.push(input.slice(copied, i), `'${token[0]}'`);
        i += token[0].length;
        copied = i;
        continue;
      }
    }
    i++;
  }
  if (pieces.length === 0) return { text: input, placeholders };
  pieces.push(input.slice(copied));
  return { text: pieces.join(''), placeholders };
}
