import { SetPasswordScreen } from './set-password-screen';

/** An invited staff member chooses their first password through the invitation's single-use link. */
export default function AcceptInvitePage() {
  return (
    <SetPasswordScreen
      title="Set your password"
      subtitle="You have been invited to the Backoffice. Choose the password you will sign in with."
      submitLabel="Set password"
      busyLabel="Setting password..."
      failure="Could not set the password. Please try again."
      invalidLink="This invitation link is invalid or incomplete. Ask the administrator who invited you for a new invitation."
    />
  );
}
