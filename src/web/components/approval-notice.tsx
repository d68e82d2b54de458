import { Alert } from '@mantine/core';
import { IconHourglassHigh } from '@tabler/icons-react';

/**
 * A money request above the approval threshold is not done yet: it is told apart from a success
 * (informational colour and icon) and stays until dismissed, since nothing moved and the operator
 * should not miss that a second operator has to approve it.
 */
export function ApprovalNotice({ message, onClose }: { message: string | null; onClose: () => void }) {
  if (!message) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconHourglassHigh aria-hidden />}
      role="status"
      title="Awaiting approval"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      mb="md"
    >
      {message}
    </Alert>
  );
}
