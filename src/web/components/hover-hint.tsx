import { cloneElement, useRef, useState, type FocusEvent, type KeyboardEvent, type MouseEvent, type ReactElement, type Ref } from 'react';
import { Tooltip, type TooltipProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';

interface HintChildProps {
  ref?: Ref<HTMLElement>;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
}

type HintProps = Omit<TooltipProps, 'children' | 'target' | 'opened' | 'events'> & {
  children: ReactElement<HintChildProps>;
  /** Shown on keyboard focus too (as well as on hover); not when a click gave the focus. */
  focus?: boolean;
};

/** Focus a keyboard gave (or a script, after no click), as the browser's :focus-visible tells it. */
function focusVisible(el: HTMLElement): boolean {
  try {
    return el.matches(':focus-visible');
  } catch {
    return true; // a browser (or jsdom) that does not know the selector
  }
}

/**
 * A tooltip for the cells of a table: Mantine's Tooltip is made only while the pointer is over
 * its element or the element has focus, not for every cell of every row. A Tooltip keeps its
 * floating state and renders its portal (and renders again once that is mounted) even while
 * hidden: 25 rows of 7 tooltips each, with the cut texts' forced layouts (truncated-text.tsx),
 * cost the users page a quarter of each page change (bench/results.md); the element itself is
 * the same with or without its hint (never remounted, so focus stays). Escape hides it. What it
 * says is the element's own text or name already (a cut value, an icon button's aria-label), or
 * is described by the caller (aria-describedby), so screen readers lose nothing while it is away.
 */
export function HoverHint({ children, disabled, focus = false, ...tooltip }: HintProps) {
  const [open, setOpen] = useState(false);
  const own = useRef<HTMLElement>(null);
  const ref = useMergedRef(own, children.props.ref);
  const show = () => setOpen(true);
  const hide = () => setOpen(false);
  const { onMouseEnter, onMouseLeave, onFocus, onBlur, onKeyDown } = children.props;
  return (
    <>
      {cloneElement(children, {
        ref,
        onMouseEnter: (e) => { onMouseEnter?.(e); show(); },
        onMouseLeave: (e) => { onMouseLeave?.(e); hide(); },
        onFocus: (e) => { onFocus?.(e); if (focus && focusVisible(e.currentTarget)) show(); },
        onBlur: (e) => { onBlur?.(e); hide(); },
        onKeyDown: (e) => { onKeyDown?.(e); if (e.key === 'Escape') hide(); },
      })}
      {open && !disabled && <Tooltip {...tooltip} target={own} opened />}
    </>
  );
}
