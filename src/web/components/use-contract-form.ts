import { useState } from 'react';
import { schemaResolver, useForm, type FormErrors } from '@mantine/form';
import { serverFieldErrors } from '../lib/api-client';
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
 * A form on Mantine's form library checked by the contract's body schema before anything is sent.
 * A field's own problem shows under it, in the schema's words; the spec's one message for missing
 * required fields, a rule, a problem with no field of its own and a refused save show once, at the
 * top of the form. A refused save keeps the form open with what was typed and marks the fields
 * the server named.
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
      // Marked (true), with the one message at the top.
      if (required && missing.length > 0) return { [TOP]: required.message, ...Object.fromEntries(missing.map((field) => [field, true])) };
      const errors = check(body);
      for (const field of Object.keys(errors)) if (options.changedOnly && !form.isDirty(field)) delete errors[field];
      if (Object.keys(errors).length > 0) return errors;
      const message = rule?.(values);
      return message ? { [TOP]: message } : {};
    },
  });
  // The top message: a form-level one, else the first problem that has no field of its own.
  const top =
    failure ??
    (typeof form.errors[TOP] === 'string' ? form.errors[TOP] : null) ??
    Object.entries(form.errors).find(([field, message]) => typeof message === 'string' && !(field in form.values))?.[1] ??
    null;

  /** form.onSubmit for `save(body)`: a refusal shows its message; a thrown success stays open. */
  const submit = (save: (body: Body) => Promise<unknown>) =>
    form.onSubmit(
      async (values) => {
        setFailure(null);
        try {
          await save(options.toBody(values));
        } catch (err) {
          const refused = Object.entries(serverFieldErrors(err)).filter(([field]) => field in values);
          for (const [field, message] of refused) form.setFieldError(field, message);
          // Said on its field already, unless the screen words a refusal its own way (spec §8).
          const said = refused.length > 0 && !options.failure;
          setFailure(said ? null : options.failure ? options.failure(err) : messageOf(err, 'An unexpected error occurred'));
        }
      },
      () => setFailure(null),
    );

  return {
    form,
    /** The message at the top of the form, or null. */
    error: top === null ? null : String(top),
    setError: (message: string | null) => {
      form.clearErrors();
      setFailure(message);
    },
    submit,
  };
}

/** The key of a message that belongs to the whole form. */
const TOP = '';
