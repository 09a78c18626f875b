'use client';

import { useCallback, useEffect, useId, useRef } from 'react';

// A success notice is about the last thing done: once the user sends or starts
// editing another form, or presses a switch, the notices of the page's other forms are about an
// earlier action and go. The forms know nothing of each other, so they tell the page, through one
// event on the document that every console form listens to.
const ACTION_STARTED = 'consola:accion-iniciada';

/**
 * `onOtherAction` runs when another form or switch of the page starts an action; the function
 * returned tells the others that this one starts one.
 */
export function useActionActivity(onOtherAction: () => void): () => void {
  const id = useId();
  const latest = useRef(onOtherAction);
  useEffect(() => {
    latest.current = onOtherAction;
  });
  useEffect(() => {
    const listener = (event: Event) => {
      if ((event as CustomEvent<string>).detail !== id) latest.current();
    };
    document.addEventListener(ACTION_STARTED, listener);
    return () => document.removeEventListener(ACTION_STARTED, listener);
  }, [id]);
  return useCallback(() => {
    document.dispatchEvent(new CustomEvent(ACTION_STARTED, { detail: id }));
  }, [id]);
}
