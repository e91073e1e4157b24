/** The human report and the words the formatters share. */
export const report = {
  /** a list in a one-line message (summarizeList): "a, b, c and 4 more" */
  list: {
    separator: ', ',
    andMore: (p: { list: string; more: number }) => `${p.list} and ${p.more} more`,
  },
};
