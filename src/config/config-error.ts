/** One variable the service cannot run with, and why (`problem` reads after the name). */
export interface VariableProblem {
  readonly variable: string;
  readonly problem: string;
}

/**
 * Raised at boot when variables hold values the service cannot run with. Every bad variable is
 * listed, one line each, so that a deployment is fixed in one go; `variable` names the first.
 */
export class ConfigError extends Error {
  readonly variable: string;
  readonly problems: readonly VariableProblem[];

  constructor(variable: string, problem: string, ...others: VariableProblem[]) {
    const problems = [{ variable, problem }, ...others];
    super(
      others.length === 0
        ? `Invalid configuration: ${variable} ${problem}`
        : ['Invalid configuration:', ...problems.map((each) => `  ${each.variable} ${each.problem}`)].join(
            '\n',
          ),
    );
    this.name = 'ConfigError';
    this.variable = variable;
    this.problems = problems;
  }
}
