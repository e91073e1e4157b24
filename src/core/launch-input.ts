export { MAX_LAUNCH_SCRIPT_BYTES, oversizedScript } from '../parsers/shell-script.js';

/** The launch script of `--launch SCRIPT`: an input of the run, like a profile, read as text and never executed. */
export interface LaunchInput {
  /** the path given to --launch ("-" for standard input), or the path recorded in a snapshot */
  file: string;
  text: string;
  /** where this run got it: the file, standard input, or the snapshot being replayed */
  from: 'file' | 'stdin' | 'snapshot';
}
