import type { FastifyBaseLogger } from 'fastify';

/** Delivers mail to account holders: the SMTP mailer in production, the log mailer in development. */
export interface Mailer {
  sendPasswordReset(to: string, resetLink: string): Promise<void>;
  /** A staff invitation: the link lets the invitee choose their first password (single use). */
  sendInvite(to: string, name: string, inviteLink: string): Promise<void>;
}

export function logMailer(log: FastifyBaseLogger): Mailer {
  return {
    async sendPasswordReset(to, resetLink) {
      log.info({ to, resetLink }, 'password reset mail (MAILER=log): open the link to choose a new password');
    },
    async sendInvite(to, name, inviteLink) {
      log.info({ to, name, inviteLink }, 'staff invitation mail (MAILER=log): open the link to choose a password');
    },
  };
}
