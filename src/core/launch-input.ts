export { MAX_LAUNCH_SCRIPT_BYTES, overTokenCap, oversizedScript, TOKENS_CAP_TEXT } from '../parsers/shell-script.js';

/** The launch script of `--launch SCRIPT`: an input of the run, like a profile, read as text and never executed. */
export interface LaunchInput {
  /** the path given to --launch ("-" for standard input), or the path recorded in a snapshot */
  file: string;
  text: string;
  /** where this run got it: the file, standard input, or the snapshot being replayed */
  from: 'file' | 'stdin' | 'snapshot';
  /**
   * the further scripts of a repeated --launch: launchers that run this one with its arguments
   * (`bash run_dp_template.sh 0,1,2,3 9000 4 0 ...`), read for the values of $1..$9
   */
  launchers?: LaunchInput[];
}
