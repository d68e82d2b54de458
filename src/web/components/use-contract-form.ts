import { useState } from 'react';
import { schemaResolver, useForm, type FormErrors } from '@mantine/form';
import { messageOf } from './error-alert';

type Values = Record<string, unknown>;

export interface ContractFormOptions<V extends Values, Body> {
  initialValues: V;
  /** The contract's body schema (zod implements Standard Schema): the server checks the same. */
  schema: Parameters<typeof schemaResolver>[0];
  /** The request body of the form's values; it is what the schema checks and what is sent. */
  toBody: (values: V) => Body;
  /** Spec §5: while one of these fields of the body is blank the form shows this one message. */
  required?: { fields: (keyof Body & string)[]; message: string };
  /** A rule the body schema can't state (a new service needs an icon file): its message, or null. */
  rule?: (values: V) => string | null;
  /**
   * Check only the fields the operator changed: an edit must not be blocked by a stored value that
   * predates a rule (the field is sent as it was, and the server decides).
   */
  changedOnly?: boolean;
  /** The message of a refused save; default: the server's message, else 'An unexpected error occurred'. */
  failure?: (error: unknown) => string;
}

const blank = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/**
 * A form on Mantine's form library checked by the contract's body schema. The fields in error are
 * marked; the message shows once, at the top of the form (as the spec's screens do).
 */
export function useContractForm<V extends Values, Body>(options: ContractFormOptions<V, Body>) {
  const check = schemaResolver(options.schema, { sync: true });
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<V>({
    initialValues: options.initialValues,
    validate: (values): FormErrors => {
      const { required, rule } = options;
      const body = options.toBody(values);
      const missing = required?.fields.filter((field) => blank(body[field])) ?? [];
      if (required && missing.length > 0) return Object.fromEntries(missing.map((field) => [field, required.message]));
      const errors = check(body);
      for (const field of Object.keys(errors)) if (options.changedOnly && !form.isDirty(field)) delete errors[field];
      if (Object.keys(errors).length > 0) return errors;
      const message = rule?.(values);
      return message ? { '': message } : {};
    },
    // The message shows in the form's alert; the field itself is only marked invalid.
    enhanceGetInputProps: ({ inputProps }) => ({ error: inputProps.error ? true : undefined }),
  });
  const invalid = Object.values(form.errors).find(Boolean);

  /** form.onSubmit for `save(body)`: a refusal shows its message; a thrown success stays open. */
  const submit = (save: (body: Body) => Promise<unknown>) =>
    form.onSubmit(async (values) => {
      setFailure(null);
      try {
        await save(options.toBody(values));
      } catch (err) {
        setFailure(options.failure ? options.failure(err) : messageOf(err, 'An unexpected error occurred'));
      }
    });

  return {
    form,
    /** The one message the form shows: what is invalid, else why the save failed. */
    error: invalid ? String(invalid) : failure,
    setError: (message: string | null) => {
      form.clearErrors();
      setFailure(message);
    },
    submit,
  };
}
