import { TextInput, type TextInputProps } from '@mantine/core';

interface AmountInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'error' | 'type'> {
  value: string;
  onChange: (value: string) => void;
  /** Marks the field invalid; the form shows the spec's message itself, named by `messageId`. */
  invalid?: boolean;
  messageId?: string;
}

/**
 * A money amount exactly as typed. A number input clamps, rounds and reformats on blur (-5, 0 and
 * 0.001 became 0.01, 1e5 became 15) and the changed value was then sent; this field never touches
 * the text, and the form checks it with parseAmount (lib/amount.ts) on submit.
 */
export function AmountInput({ value, onChange, invalid = false, messageId, ...props }: AmountInputProps) {
  return (
    <TextInput
      {...props}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={invalid}
      aria-invalid={invalid}
      aria-describedby={invalid ? messageId : undefined}
    />
  );
}
