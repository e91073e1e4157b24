import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteAnglePlaceholders } from '../../../src/parsers/angle-placeholders.js';

describe('quoteAnglePlaceholders', () => {
  it('quotes <name> placeholders where bash would read redirections, and says where they are', () => {
    const out = quoteAnglePlaceholders('vllm serve <path_to_your_model>/Q \\\n--host <your_server_ip> \\\n--port 8002\n');
    expect(out.text).toBe("vllm serve '<path_to_your_model>'/Q \\\n--host '<your_server_ip>' \\\n--port 8002\n");
    expect(out.placeholders).toEqual([
      { line: 1, token: '<path_to_your_model>' },
      { line: 2, token: '<your_server_ip>' },
    ]);
  });

  it('leaves real redirections, quotes, comments and here-documents alone', () => {
    const text = [
      'vllm serve /m > log.txt 2>&1 < /dev/null',
      'echo "<not_a_redirection>" \'<nor_this>\'   # <comment>',
      'cat <<EOF > cfg',
      'x=<inside_heredoc>',
      'EOF',
      'diff <(ls) <(ls)',
      '',
    ].join('\n');
    const out = quoteAnglePlaceholders(text);
    expect(out.text).toBe(text);
    expect(out.placeholders).toEqual([]);
  });

  it('reads non-ASCII placeholders and keeps the line count', () => {
    const out = quoteAnglePlaceholders('export HCCL_IF_IP=<服务器ip>\nvllm serve /m\n');
    expect(out.placeholders).toEqual([{ line: 1, token: '<服务器ip>' }]);
    expect(out.text.split('\n')).toHaveLength(3);
  });

  it('changes nothing but the quotes around each placeholder, on any text of the characters that matter', () => {
    const piece = fc.constantFrom('<a>', '<host_ip>', '<', '>', "'", '"', '\\', '\n', '#', ' ', 'x', '<<EOF', 'EOF', '\t', '<<-E');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const input = pieces.join('');
        const { text, placeholders } = quoteAnglePlaceholders(input);
        // two quote characters added a placeholder, and nothing else changed
        expect(text.length).toBe(input.length + 2 * placeholders.length);
        expect(text.replaceAll("'", '')).toBe(input.replaceAll("'", ''));
        if (placeholders.length === 0) expect(text).toBe(input);
      }),
      { numRuns: 3000 },
    );
  });
});
