import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';

export interface SmtpMailer extends Mailer {
  /** Closes pooled connections to the mail server. */
  close(): void;
}

/**
 * Mail through an SMTP server (SMTP_URL, e.g. smtp://user:pass@mail.example:587 or smtps://…:465),
 * sent as MAIL_FROM. Plain text: a link in it is the whole point, and text survives every client.
 */
export function smtpMailer({ smtpUrl, from }: { smtpUrl: string; from: string }): SmtpMailer {
  const transport = nodemailer.createTransport(smtpUrl);
  /** A mail that carries a one-time link: the lines before it, the link, a blank line, and what to do if the mail was not expected. */
  const sendLink = async (to: string, subject: string, before: string[], link: string, ifNotExpected: string) => {
    await transport.sendMail({ from, to, subject, text: [...before, link, '', ifNotExpected].join('\n') });
  };
  return {
    async sendPasswordReset(to, resetLink) {
      await sendLink(
        to,
        'Reset your Backoffice password',
        [
          'Someone asked to reset the password of your Backoffice account.',
          '',
          `Choose a new password here (the link works once, for 30 minutes):`,
        ],
        resetLink,
        'If it was not you, ignore this mail: your password stays as it is.',
      );
    },
    async sendInvite(to, name, inviteLink) {
      await sendLink(
        to,
        'You are invited to Backoffice',
        [`Hello ${name},`, '', 'You have been given a staff account on Backoffice.', 'Choose your password here (the link works once, for 72 hours):'],
        inviteLink,
        'If you did not expect this mail, ignore it.',
      );
    },
    async sendEmailConfirmation(to, name, confirmLink) {
      await sendLink(
        to,
        'Confirm your Backoffice registration',
        [
          `Hello ${name},`,
          '',
          'An account on Backoffice was registered with this email address.',
          'Confirm that it is yours here (the link works once, for 72 hours):',
        ],
        confirmLink,
        'If it was not you, ignore this mail: the account stays unconfirmed and cannot sign in.',
      );
    },
    async sendEmailChange(to, name, confirmLink) {
      await sendLink(
        to,
        'Confirm your new Backoffice sign-in email',
        [
          `Hello ${name},`,
          '',
          'Your Backoffice account asked to sign in with this email address from now on.',
          'Confirm that it is yours here (the link works once, for 72 hours):',
        ],
        confirmLink,
        'If it was not you, ignore this mail: the account keeps its current email.',
      );
    },
    close() {
      transport.close();
    },
  };
}
