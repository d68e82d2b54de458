/**
 * What an operator may type as a money amount: plain ASCII digits, optionally a point and one or
 * two decimals. Signs, exponents ("1e5"), grouping commas ("1,000" is 1000 in India but 1.000 in
 * much of Europe) and other scripts' digits are refused rather than guessed at: a guess that moves
 * money is worse than asking again. Surrounding spaces are ignored because they are invisible and
 * cannot change the meaning; refusing them would show an error whose cause the operator cannot see.
 */
const PLAIN_AMOUNT = /^([0-9]+)(?:\.([0-9]{1,2}))?$/;

/**
 * The typed text as integer paise, or null when it is not a positive amount with at most 2
 * decimals. Read from the digits, not through a float, so "0.29" is 29 paise and never 28.
 */
export function parseAmountPaise(text: string): number | null {
  const match = PLAIN_AMOUNT.exec(text.trim());
  if (!match) return null;
  const [, rupees, decimals = ''] = match;
  const paise = Number(rupees) * 100 + Number(decimals.padEnd(2, '0'));
  // Beyond this the wire number could no longer carry every digit that was typed.
  if (!Number.isSafeInteger(paise) || paise <= 0) return null;
  return paise;
}

/**
 * The typed text as the wire's rupee number, or null (see parseAmountPaise). Dividing whole paise
 * by 100 gives the double nearest the typed decimal, the same number the server reads back as
 * those paise: "10.10" is sent as 10.1, "0.29" as 0.29.
 */
export function parseAmount(text: string): number | null {
  const paise = parseAmountPaise(text);
  return paise === null ? null : paise / 100;
}
