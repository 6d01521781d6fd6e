// Long lists drawn in part: only the rows in view of the page that scrolls them
// (the nearest `.page`), and `overscan` rows beyond each edge, are in the
// document. Padding of the right height stands for the rest, so the scroll bar,
// every position and the page below the list are as if all were there. Written
// here (a small component) rather than taken from a library.
import { useEffectEvent, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { markStartStepOnce } from '../api';

/** Rows `first` up to, not including, `last`. */
export interface RowRange {
  first: number;
  last: number;
}

/**
 * The rows to draw: those any part of which is within `view` pixels from
 * `scrollTop` (both in the scroller's content), and `overscan` more each side.
 * `listTop`: where the list starts in the scroller's content; `stride`: a row's
 * height with the gap after it.
 */
export function rowsInView(o: {
  scrollTop: number;
  view: number;
  listTop: number;
  stride: number;
  rows: number;
  overscan: number;
}): RowRange {
  const from = o.scrollTop - o.listTop;
  const to = from + o.view;
  const first = Math.min(o.rows, Math.max(0, Math.floor(from / o.stride) - o.overscan));
  const last = Math.min(o.rows, Math.max(first, Math.ceil(to / o.stride) + o.overscan));
  return { first, last };
}

/** The page's element that scrolls the list. */
function scrollerOf(list: HTMLElement): HTMLElement | null {
  return list.closest<HTMLElement>('.page');
}

/** The height of the scroller's view; before layout (and in tests), the window's. */
function viewOf(scroller: HTMLElement): number {
  return scroller.clientHeight || window.innerHeight;
}

/** What in an item takes the focus, in order. */
function focusables(item: Element): HTMLElement[] {
  return [...item.querySelectorAll<HTMLElement>('button, a[href], input, [tabindex]:not([tabindex="-1"])')];
}

export interface VirtualListProps {
  /** How many items the list has. */
  count: number;
  /** Items side by side in one row: the CSS grid's columns; 1 for a list. */
  columns?: number;
  /** A row's height with the gap after it, in CSS pixels, until one is measured. */
  estimate: number;
  /** Rows drawn beyond each edge of the view. */
  overscan?: number;
  className: string;
  /** The list's name for assistive technology. */
  label?: string;
  itemKey: (index: number) => string | number;
  renderItem: (index: number) => ReactNode;
  /** Told the items drawn, `first` up to, not including, `last`, each time
   * they change (a list whose items are fetched as they come into view). */
  onRange?: (first: number, last: number) => void;
}

/**
 * A list or grid of many items of one height, of which only those in view are in
 * the document. Each item is wrapped in a `.virtual-item` (its index in
 * `data-index`); the arrow keys, Page Up/Down, Home and End move the focus from
 * item to item, drawing the one they reach.
 */
export function VirtualList({
  count,
  columns = 1,
  estimate,
  overscan = 2,
  className,
  label,
  itemKey,
  renderItem,
  onRange,
}: VirtualListProps) {
  const list = useRef<HTMLDivElement>(null);
  const [stride, setStride] = useState(estimate);
  const rows = Math.ceil(count / columns);
  const [range, setRange] = useState<RowRange>(() =>
    rowsInView({ scrollTop: 0, view: window.innerHeight, listTop: 0, stride, rows, overscan }),
  );
  // The item to focus once it is drawn, and which of its focusable elements.
  const pendingFocus = useRef<{ index: number; slot: number } | null>(null);

  // Where the scroller's view is, over the list; nothing while the page is
  // hidden (a sub-page over it), so the items it had stay as they were.
  const measure = () => {
    const element = list.current;
    const scroller = element && scrollerOf(element);
    if (!element || !scroller || scroller.closest('[hidden]')) return null;
    const listTop = element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    return { scroller, listTop, view: viewOf(scroller) };
  };

  /** The rows in view now, or null while the page is hidden. */
  const inView = () => {
    const at = measure();
    return at && rowsInView({ scrollTop: at.scroller.scrollTop, view: at.view, listTop: at.listTop, stride, rows, overscan });
  };
  const keep = (next: RowRange | null) => (r: RowRange) =>
    next === null || (r.first === next.first && r.last === next.last) ? r : next;
  const update = () => setRange(keep(inView()));
  // The latest `update` for the listeners, which are added once.
  const latest = useRef(update);

  // The row height as drawn, once there are two rows.
  useLayoutEffect(() => {
    // The start's breakdown: the wallet's first list is in the page; its
    // layout follows.
    markStartStepOnce('committed');
    const drawn = list.current?.querySelectorAll<HTMLElement>(':scope > .virtual-item');
    if (!drawn || drawn.length <= columns) return;
    const measured = drawn[columns].offsetTop - drawn[0].offsetTop;
    if (measured > 0 && Math.abs(measured - stride) > 0.5) setStride(measured);
  }, [count, range, columns, stride]);

  // After every render: the rows in view are looked at again before the next
  // frame (the list may have moved, grown or shrunk), and a focus that waited
  // for its item is given.
  useLayoutEffect(() => {
    latest.current = update;
    const frame = requestAnimationFrame(() => latest.current());
    const element = list.current;
    const wanted = pendingFocus.current;
    if (wanted && element) {
      const item = element.querySelector(`:scope > [data-index="${wanted.index}"]`);
      // An item still coming (a placeholder) has nothing to focus yet.
      const targets = item ? focusables(item) : [];
      if (targets.length > 0) {
        pendingFocus.current = null;
        targets[Math.min(wanted.slot, targets.length - 1)].focus();
      }
    }
    return () => cancelAnimationFrame(frame);
  });

  useLayoutEffect(() => {
    const element = list.current;
    const scroller = element && scrollerOf(element);
    if (!element || !scroller) return;
    const onChange = () => latest.current();
    scroller.addEventListener('scroll', onChange, { passive: true });
    window.addEventListener('resize', onChange);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onChange);
    observer?.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', onChange);
      window.removeEventListener('resize', onChange);
      observer?.disconnect();
    };
  }, []);

  /** Scrolls item `index`'s row into view, draws it and focuses it. */
  function reveal(index: number, slot: number) {
    const at = measure();
    if (at) {
      const top = at.listTop + Math.floor(index / columns) * stride;
      const { scroller, view } = at;
      if (top < scroller.scrollTop) scroller.scrollTop = top;
      else if (top + stride > scroller.scrollTop + view) scroller.scrollTop = top + stride - view;
    }
    pendingFocus.current = { index, slot };
    update();
    // Already drawn: no render follows to focus it.
    const item = list.current?.querySelector(`:scope > [data-index="${index}"]`);
    const targets = item ? focusables(item) : [];
    if (targets.length > 0) {
      pendingFocus.current = null;
      targets[Math.min(slot, targets.length - 1)].focus();
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = e.target as HTMLElement;
    const item = target.closest<HTMLElement>('.virtual-item');
    if (!item || item.parentElement !== list.current) return;
    const index = Number(item.dataset.index);
    const page = Math.max(1, Math.floor((measure()?.view ?? window.innerHeight) / stride)) * columns;
    const moves: Record<string, number | undefined> = {
      ArrowDown: index + columns,
      ArrowUp: index - columns,
      ArrowRight: columns > 1 ? index + 1 : undefined,
      ArrowLeft: columns > 1 ? index - 1 : undefined,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: count - 1,
    };
    const move = moves[e.key];
    if (move === undefined) return;
    e.preventDefault();
    // Down from the last full row goes to the last item; past either end, nowhere.
    const next = Math.max(0, Math.min(count - 1, move));
    if (next === index) return;
    reveal(next, Math.max(0, focusables(item).indexOf(target)));
  }

  const first = range.first * columns;
  const last = Math.min(count, range.last * columns);
  const tell = useEffectEvent(() => onRange?.(first, last));
  useLayoutEffect(() => tell(), [first, last]);
  const drawn = Array.from({ length: Math.max(0, last - first) }, (_, i) => first + i);
  return (
    <div
      ref={list}
      className={`virtual ${className}`}
      role="list"
      aria-label={label}
      onKeyDown={onKeyDown}
      style={{
        paddingTop: range.first * stride,
        paddingBottom: Math.max(0, rows - range.last) * stride,
      }}
    >
      {drawn.map((index) => {
        return (
          <div
            key={itemKey(index)}
            className="virtual-item"
            role="listitem"
            data-index={index}
            data-last={index === count - 1 ? '' : undefined}
            aria-posinset={index + 1}
            aria-setsize={count}
          >
            {renderItem(index)}
          </div>
        );
      })}
    </div>
  );
}
