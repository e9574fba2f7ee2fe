// Whether an element has come onto the screen, once and for good: a panel below the screen asks the
// engine when the user scrolls to it, not when the view opens, so the part on screen is drawn first
// (Models on a whole study: its groups and heatmap, half a second of engine time, lie below Predict,
// Scaling and Scale-up). A heading peeking in at the screen's foot is not yet on it: an element is on
// screen once INTO_PX of it is, or all of it.
import { useEffect, useRef, useState, type RefObject } from 'react';

const INTO_PX = 120;
/** Reported at every 5 % of the element seen, so its height on screen is known as it scrolls in. */
const STEPS = Array.from({ length: 21 }, (_, i) => i / 20);

export function useOnScreen<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [onScreen, setOnScreen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (onScreen || !element) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting && (e.intersectionRect.height >= INTO_PX || e.intersectionRatio > 0.99))) {
        setOnScreen(true);
      }
    }, { threshold: STEPS });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onScreen]);
  return [ref, onScreen];
}
