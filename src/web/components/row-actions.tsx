import type { ReactNode } from 'react';
import { ActionIcon, Group } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { HoverHint } from './hover-hint';

interface RowActionProps {
  /** What it does, shown on hover and focus ('Edit'). */
  label: string;
  /** The screen reader's name, naming the row ('Edit Gold'). */
  name: string;
  icon: ReactNode;
  onClick: () => void;
  color?: string;
  disabled?: boolean;
}

/**
 * THE row action of every table (docs/structure.md, "Visual language"): an icon button with a
 * tooltip, named for screen readers by the action and the row.
 */
export function RowAction({ label, name, icon, onClick, color, disabled }: RowActionProps) {
  return (
    <HoverHint label={label} focus>
      <ActionIcon variant="subtle" color={color} aria-label={name} onClick={onClick} disabled={disabled}>
        {icon}
      </ActionIcon>
    </HoverHint>
  );
}

/** A row's actions, side by side. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap">
      {children}
    </Group>
  );
}

/** The Edit and Delete actions of a catalogue row, named by the row's name. */
export function EditDeleteButtons({ name, onEdit, onDelete, disabled }: { name: string; onEdit: () => void; onDelete: () => void; disabled?: boolean }) {
  return (
    <RowActions>
      <RowAction label="Edit" name={`Edit ${name}`} icon={<IconEdit size={18} aria-hidden />} onClick={onEdit} disabled={disabled} />
      <RowAction label="Delete" name={`Delete ${name}`} icon={<IconTrash size={18} aria-hidden />} color="red" onClick={onDelete} disabled={disabled} />
    </RowActions>
  );
}
