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

interface RecordFormModalProps<Body> {
  /** The record's name as the spec writes it in titles and messages: 'Role', 'Permission'. */
  noun: string;
  /** The record being edited (a record or true), else adding one (null or false). */
  editing: boolean | object | null;
  /** The form's `submit` (use-contract-form): checks the fields, then saves the body. */
  submit: (save: (body: Body) => Promise<unknown>) => FormEventHandler<HTMLFormElement>;
  save: (body: Body) => Promise<unknown>;
  onSaved: (message: string) => void;
  onClose: () => void;
  error: string | null;
  busy: boolean;
  size?: ModalProps['size'];
  children: ReactNode;
}

/**
 * A catalogue record's create/edit dialog: 'Add Role' / 'Edit Role', Create / Update, and after
 * the save the spec's 'Role created successfully' / 'Role updated successfully'.
 */
export function RecordFormModal<Body>({ noun, editing, submit, save, onSaved, ...props }: RecordFormModalProps<Body>) {
  const isEdit = Boolean(editing);
  const title = `${isEdit ? 'Edit' : 'Add'} ${noun}`;
  return (
    <FormModal
      title={title}
      onSubmit={submit(async (body) => {
        await save(body);
        onSaved(`${noun} ${isEdit ? 'updated' : 'created'} successfully`);
      })}
      submitLabel={isEdit ? 'Update' : 'Create'}
      {...props}
    />
  );
}

/** The props of a catalogue record's form: the record being edited (null: a new one), and how it closes. */
export interface RecordFormProps<Row> {
  editing: Row | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}
