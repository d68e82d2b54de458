import type { ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { looksLikeEmail } from '../../lib/email';
import type { FieldErrors } from '../../lib/api-client';

/** The panel's own check of a name and an email before anything is sent. */
export function checkDetails(fullName: string, email: string): FieldErrors {
  const found: FieldErrors = {};
  if (!fullName.trim()) found.fullName = 'Full name is required';
  if (!looksLikeEmail(email)) found.email = 'Enter a valid email address';
  return found;
}

interface DetailsFieldsProps {
  fullName: string;
  email: string;
  onFullName: (value: string) => void;
  onEmail: (value: string) => void;
  errors: FieldErrors;
  /** Under the email field. */
  emailDescription?: ReactNode;
  /** The email is shown but not edited here (one's own: it changes under Your account). */
  emailReadOnly?: boolean;
  /** 'off' where the browser must not offer the operator's own name and email. */
  autoComplete?: 'off';
}

/** A staff member's full name and sign-in email, as invited or edited. */
export function DetailsFields({ fullName, email, onFullName, onEmail, errors, emailDescription, emailReadOnly, autoComplete }: DetailsFieldsProps) {
  return (
    <>
      <TextInput
        label="Full name"
        value={fullName}
        onChange={(e) => onFullName(e.currentTarget.value)}
        error={errors.fullName}
        withAsterisk
        data-autofocus
        autoComplete={autoComplete}
      />
      <TextInput
        label="Email"
        type="email"
        value={email}
        onChange={(e) => onEmail(e.currentTarget.value)}
        error={errors.email}
        withAsterisk
        autoComplete={autoComplete}
        description={emailDescription}
        readOnly={emailReadOnly}
      />
    </>
  );
}
