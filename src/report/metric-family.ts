/** One metric family of the Prometheus text format: its name, HELP text, type and samples. */
export interface Family {
  name: string;
  help: string;
  /** gauge unless told: every series of a report is one */
  type?: 'gauge' | 'counter';
  samples: Array<{ labels?: Record<string, string>; value: number }>;
}
