import type { Config } from './config.ts';

/** Delivers mail to account holders: the SMTP mailer in production, the log mailer in development. */
export interface Mailer {
  sendPasswordReset(to: string, resetLink: string): Promise<void>;
  /** A staff invitation: the link lets the invitee choose their first password (single use). */
  sendInvite(to: string, name: string, inviteLink: string): Promise<void>;
  /** A self-registration: the link confirms the address (single use); until then the account cannot sign in. */
  sendEmailConfirmation(to: string, name: string, confirmLink: string): Promise<void>;
  /** An account's new sign-in email, mailed to that address: the link makes it the sign-in email (single use). */
  sendEmailChange(to: string, name: string, confirmLink: string): Promise<void>;
}

/**
 * A link in a mail, always on the configured PUBLIC_URL: a request's Host or X-Forwarded-* header
 * would let anyone have the real owner mailed a link to their own site (issue 13, finding 3).
 */
export function mailLink(config: Pick<Config, 'publicUrl'>, page: 'reset-password' | 'accept-invite' | 'confirm-email', token: string): string {
  return `${config.publicUrl}/${page}?token=${encodeURIComponent(token)}`;
}

/**
 * Development only: writes each mail to the server log. The link (a working token) is printed only
 * when asked for — main.ts does so on a development start — so no other log ever holds one.
 */
/** Where the log mailer writes: the server's logger, or main.ts's console lines. */
export interface MailLog {
  info(fields: Record<string, unknown>, message: string): void;
}

export function logMailer(log: MailLog, { showLinks = false }: { showLinks?: boolean } = {}): Mailer {
  const link = (url: string) => (showLinks ? url : '[not shown outside development]');
  return {
    async sendPasswordReset(to, resetLink) {
      log.info({ to, resetLink: link(resetLink) }, 'password reset mail (no SMTP_URL): open the link to choose a new password');
    },
    async sendInvite(to, name, inviteLink) {
      log.info({ to, name, inviteLink: link(inviteLink) }, 'staff invitation mail (no SMTP_URL): open the link to choose a password');
    },
    async sendEmailConfirmation(to, name, confirmLink) {
      log.info({ to, name, confirmLink: link(confirmLink) }, 'email confirmation mail (no SMTP_URL): open the link to confirm the registration');
    },
    async sendEmailChange(to, name, confirmLink) {
      log.info({ to, name, confirmLink: link(confirmLink) }, 'email change mail (no SMTP_URL): open the link to make this the sign-in email');
    },
  };
}
