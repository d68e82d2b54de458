import type { FormEventHandler, ReactNode } from 'react';
import { Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { ErrorAlert } from './error-alert';

interface FormModalProps {
  /** The dialog's title, which also names the form. */
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form's one message (spec §5 validation, or a refused save). */
  error: string | null;
  busy: boolean;
  submitLabel: string;
  /** Shown on the submit button while saving (in place of a spinner). */
  busyLabel?: string;
  submitColor?: string;
  size?: ModalProps['size'];
  children: ReactNode;
}

/** A create/edit dialog: the message, the fields, then Cancel and the submit button. */
export function FormModal({ title, onClose, onSubmit, error, busy, submitLabel, busyLabel, submitColor, size, children }: FormModalProps) {
  return (
    <Modal opened onClose={onClose} title={title} centered size={size}>
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="md">
          <ErrorAlert error={error} />
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            {busyLabel ? (
              <Button type="submit" color={submitColor} disabled={busy}>
                {busy ? busyLabel : submitLabel}
              </Button>
            ) : (
              <Button type="submit" color={submitColor} loading={busy}>
                {submitLabel}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
