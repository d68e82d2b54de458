import type { RunKind } from '../../../../contract/income.ts';
import { AppError } from '../../../lib/errors.ts';
import type { RunKindHandler } from './kind.ts';

/** Groundwork placeholder: a kind whose computation is not written yet refuses with 501. */
export function notBuilt(kind: RunKind): RunKindHandler {
  const refuse = (): never => {
    throw new AppError(501, `Runs of kind ${kind} are not built yet`);
  };
  return { kind, periodOf: refuse, isDue: () => false, begin: refuse, step: refuse, preview: refuse, undo: refuse };
}
