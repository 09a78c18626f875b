'use client';

import { useRef, useState, type ReactNode } from 'react';

/**
 * A tooltip for the server-rendered charts: pointing at (or tapping) a column whose element
 * carries data-tip shows its figures beside it. The same figures are in the tables next to each
 * chart for keyboards and screen readers.
 */
export function ChartTooltip({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null);

  function show(target: EventTarget, clientX: number, clientY: number) {
    const element = (target as Element).closest?.('[data-tip]');
    const frame = box.current?.getBoundingClientRect();
    if (!element || !frame) return setTip(null);
    setTip({ text: element.getAttribute('data-tip') ?? '', x: clientX - frame.left, y: clientY - frame.top });
  }

  return (
    <div
      ref={box}
      className="chart-tooltip-frame"
      onPointerMove={(event) => show(event.target, event.clientX, event.clientY)}
      onPointerDown={(event) => show(event.target, event.clientX, event.clientY)}
      onPointerLeave={(event) => event.pointerType === 'mouse' && setTip(null)}
    >
      {children}
      {tip && (
        <div
          className="chart-tooltip"
          role="tooltip"
          data-testid="chart-tooltip"
          style={{ left: `min(${tip.x + 12}px, calc(100% - 13rem))`, top: Math.max(tip.y - 10, 0) }}
        >
          {tip.text.split('\n').map((line, index) => (
            <div key={index} className={index === 0 ? 'tip-title' : undefined}>
              {line}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
