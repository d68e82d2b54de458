import type { TestProject } from 'vitest/node';
import { dropTemplates } from './templates.ts';

/** The journeys' templates (templates.ts) live for the run: removed when it ends. */
export default function setup(project: TestProject) {
  const run = project.config.env?.E2E_TEMPLATE_RUN;
  return async () => {
    if (run) await dropTemplates(run);
  };
}
