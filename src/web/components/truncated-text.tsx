import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Group, Text, Tooltip, type TextProps } from '@mantine/core';

interface TruncatedTextProps extends Omit<TextProps, 'truncate' | 'children'> {
  children: string;
  /** The widest the text may be before it is cut with an ellipsis. */
  maxWidth?: number | string;
}

/**
 * A value of any length in a table cell: cut with an ellipsis at `maxWidth`, the whole text in a
 * tooltip on hover and, when it is cut, on keyboard focus too (the cell then takes focus).
 */
export function TruncatedText({ children, maxWidth = 240, size = 'sm', ...textProps }: TruncatedTextProps) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) setCut(el.scrollWidth > el.clientWidth + 1);
  }, [children, maxWidth]);
  return (
    <Tooltip label={children} disabled={!cut} multiline maw={480} events={{ hover: true, focus: true, touch: true }} withinPortal>
      <Text ref={ref} size={size} truncate="end" maw={maxWidth} tabIndex={cut ? 0 : undefined} {...textProps}>
        {children}
      </Text>
    </Tooltip>
  );
}

/** A cut value and, on the same line, what goes with it (a badge, a button), as a name cell shows them. */
export function TruncatedTextWith({ beside, ...props }: TruncatedTextProps & { beside: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <TruncatedText {...props} />
      {beside}
    </Group>
  );
}
