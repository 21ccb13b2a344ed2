import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { assignLocation } from '../../browser';
import { nextStep } from './rules';

/**
 * Goes where a server answer's `next` says: a portal route in the SPA, a server URL (such as the
 * internal callback) by a full navigation; an unusable `next` falls back to `fallback`.
 */
export function useFollowNext() {
  const navigate = useNavigate();
  return useCallback(
    (next: string | null | undefined, fallback: string) => {
      const step = nextStep(next);
      const target = step.kind === 'invalid' ? nextStep(fallback) : step;
      if (target.kind === 'server') assignLocation(target.url);
      else if (target.kind === 'route') navigate(target.to);
    },
    [navigate],
  );
}
