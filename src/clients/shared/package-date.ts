/** The day every file of a client package is dated (1 January 2026), so that the same files always make the same archive. */
export const clientPackageDate = new Date(Date.UTC(2026, 0, 1));
