// One broken business rule: where (JSON pointer into the record), which rule (stable code), the ISO 20022
// status reason code a pain.002 status report would give for it, and a message a person understands.
import type { ProblemFieldError } from '../../../shared/http/problem.js';

export interface RuleViolation extends ProblemFieldError {
  /** ISO 20022 ExternalStatusReason1Code (four characters), e.g. AC01, AM04. */
  readonly reason: string;
}
