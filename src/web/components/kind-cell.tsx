import { Text } from '@mantine/core';
import { TruncatedText } from './truncated-text';

/** A ledger line's kind in words, its description under it (the member ledger, statements, account legs). */
export function KindCell({ label, description }: { label: string; description?: string | null }) {
  return (
    <div>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {description && (
        <TruncatedText size="xs" c="dimmed" maxWidth={240}>
          {description}
        </TruncatedText>
      )}
    </div>
  );
}
