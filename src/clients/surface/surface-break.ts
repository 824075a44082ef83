/** One way a library of the current contract would break a caller of the release. */
export interface SurfaceBreak {
  /** The language's name as the gate writes it: `PHP`, `TypeScript`, `Python`. */
  language: string;
  /** What breaks, in a sentence, naming the class, method or export. */
  message: string;
  /**
   * The names in the library's code that the break is about, the most specific first (a
   * parameter, then its method, then its class): the gate looks each up among the contract's names.
   */
  names: string[];
}

/** How a comparison says a break: its sentence and the names it is about. */
export type BreakReport = (message: string, names: string[]) => void;
