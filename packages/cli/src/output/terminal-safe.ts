/**
 * Makes untrusted text (skill names and descriptions, tool output, session content, model answers) safe to write to a
 * terminal: every C0 control except `\n` and `\t`, DEL and every C1 control is shown in caret or hex notation instead
 * of being sent raw, so OSC 52 (clipboard), title changes, clear-screen and cursor moves cannot reach the terminal.
 * Used for all human output; JSON output is written exactly and never goes through this.
 * @example terminalSafe("a\u001b]52;c;ZXZpbA==\u0007b") // "a^[]52;c;ZXZpbA==^Gb"
 */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    if (code === 0x7f) return "^?";
    return `<${code.toString(16).padStart(2, "0")}>`;
  });
}

/** Same as {@link terminalSafe} for one-line cells: newlines and tabs become spaces too. */
export function terminalSafeLine(text: string): string {
  return terminalSafe(text.replace(/[\n\t]/g, " "));
}
