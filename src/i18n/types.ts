/**
 * The text of one check in a catalogue: what `list`, `explain` and the report show for it. The
 * entry may hold the check's messages too, beside these, as functions of one typed object.
 */
export interface CheckText {
  readonly title: string;
  /** one paragraph: why this matters for a vllm-ascend deployment */
  readonly why: string;
  /** how a failure is fixed, in general; each result carries the exact remediation */
  readonly fix: string;
  /** the files and commands the check reads; absent: the check file's own list (commands, paths) */
  readonly reads?: readonly string[];
}
