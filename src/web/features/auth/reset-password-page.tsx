import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { SetPasswordScreen } from './set-password-screen';

export default function ResetPasswordPage() {
  return (
    <SetPasswordScreen
      title="Reset password"
      subtitle="Choose a new password for your account."
      submitLabel="Reset password"
      busyLabel="Resetting..."
      failure="Could not reset the password. Please try again."
      invalidLink={
        <>
          This reset link is invalid or incomplete. Ask for a new one from the{' '}
          <Anchor component={Link} to="/forgot-password" inherit underline="always">
            forgot password
          </Anchor>{' '}
          screen.
        </>
      }
    />
  );
}
