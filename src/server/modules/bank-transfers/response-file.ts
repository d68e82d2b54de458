/** The bank's response file (docs/bank-transfers.md): CSV parsed into answers, applied by the service's applyAnswers. */

export interface BankAnswer {
  /** The file's line (1 = first after the header); 0 for a webhook. */
  line: number;
  reference: string;
  status: string;
  utr?: string | null;
  reason?: string | null;
}

/** One CSV record's cells (quotes as RFC 4180). */
function cells(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; } else cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * The bank's response file: CSV with the columns reference, status, UTR, reason (in that order,
 * or in any order under a header naming them). Blank lines are skipped.
 */
export function parseResponseFile(text: string): BankAnswer[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let columns = { reference: 0, status: 1, utr: 2, reason: 3 };
  let start = 0;
  const first = cells(lines[0] ?? '').map((c) => c.trim().toLowerCase());
  if (first.some((c) => c.includes('ref')) && first.some((c) => c.includes('status'))) {
    const find = (test: (c: string) => boolean, fallback: number) => {
      const i = first.findIndex(test);
      return i === -1 ? fallback : i;
    };
    columns = {
      reference: find((c) => c.includes('ref'), 0),
      status: find((c) => c.includes('status'), 1),
      utr: find((c) => c.includes('utr'), 2),
      reason: find((c) => c.includes('reason') || c.includes('remark'), 3),
    };
    start = 1;
  }
  const answers: BankAnswer[] = [];
  for (let i = start; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const c = cells(lines[i]);
    answers.push({
      line: i - start + 1,
      reference: (c[columns.reference] ?? '').trim(),
      status: (c[columns.status] ?? '').trim(),
      utr: (c[columns.utr] ?? '').trim() || null,
      reason: (c[columns.reason] ?? '').trim() || null,
    });
  }
  return answers;
}

