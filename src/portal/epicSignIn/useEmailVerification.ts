import { useCallback, useEffect, useRef, useState } from 'react';
import {
  RESEND_COOLDOWN_MS,
  VERIFICATION_EXPIRED_MESSAGE,
  type SendVerificationResponse,
  type VerificationStatus,
} from '../../../contract/emailVerification';
import { checkVerificationStatus, resendVerification, sendVerification } from '../../api/epic';
import type { CallResult } from '../../api/client';

/** §4/§9: the first status check 1 s after a send, then every 3 s. */
export const FIRST_POLL_DELAY_MS = 1000;
export const POLL_INTERVAL_MS = 3000;
export const RESEND_COOLDOWN_SECONDS = RESEND_COOLDOWN_MS / 1000;

export type VerificationPhase = 'sending' | 'waiting' | 'verified' | 'expired' | 'failed';

export interface VerificationState {
  phase: VerificationPhase;
  /** What went wrong when `phase` is `failed`. */
  failure: string | null;
  /** Until Resend is allowed again. */
  secondsLeft: number;
  resending: boolean;
}

export interface VerificationEvents {
  sent(): void;
  sendFailed(message: string): void;
  verified(): void;
  expired(): void;
  resent(): void;
  resendFailed(message: string): void;
}

/** §4: the per-e-mail session flag that makes the first visit, and only it, send a mail. */
export const sentFlagKey = (email: string) => `sage.verification-sent:${email.trim().toLowerCase()}`;

/** A new link of the address starts afresh: its first visit of the waiting page sends again. */
export function forgetVerificationSent(email: string): void {
  sessionStorage.removeItem(sentFlagKey(email));
}

type SendResult = CallResult<SendVerificationResponse>;

/**
 * One send per e-mail even when React mounts the page twice (StrictMode, a quick remount): the
 * second mount waits for the first mount's request instead of sending again.
 */
const sendsInFlight = new Map<string, Promise<SendResult>>();

function firstSend(email: string): Promise<SendResult> | null {
  const key = sentFlagKey(email);
  const inFlight = sendsInFlight.get(key);
  if (inFlight) return inFlight;
  if (sessionStorage.getItem(key)) return null;
  sessionStorage.setItem(key, '1');
  const sending = sendVerification(email).then((result) => {
    sendsInFlight.delete(key);
    // §4: a failed send clears the flag, so the next visit tries again.
    if (!result.ok) sessionStorage.removeItem(key);
    return result;
  });
  sendsInFlight.set(key, sending);
  return sending;
}

/** What a status answer means for the watcher. */
function pollOutcome(result: CallResult<VerificationStatus>): 'verified' | 'expired' | 'refused' | 'again' {
  if (result.ok) return result.data.verified ? 'verified' : 'again';
  if (result.message === VERIFICATION_EXPIRED_MESSAGE) return 'expired';
  // Refused (another browser, another address): asking again would get the same answer. Network
  // failures, 5xx and "slow down" pass.
  if (result.status !== undefined && result.status < 500 && result.status !== 429) return 'refused';
  return 'again';
}

/**
 * The verification page's state machine (§4 Email verification), free of React: send once, poll
 * until the link is opened or expires, resend with a 60 s cooldown, polling paused meanwhile.
 */
export function watchVerification(email: string, events: VerificationEvents, onChange: (state: VerificationState) => void) {
  let state: VerificationState = { phase: 'sending', failure: null, secondsLeft: 0, resending: false };
  let stopped = false;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let tickTimer: ReturnType<typeof setTimeout> | undefined;

  const set = (changes: Partial<VerificationState>) => {
    state = { ...state, ...changes };
    onChange(state);
  };

  function tick() {
    clearTimeout(tickTimer);
    if (state.secondsLeft <= 0) return;
    tickTimer = setTimeout(() => {
      if (stopped) return;
      set({ secondsLeft: state.secondsLeft - 1 });
      tick();
    }, 1000);
  }

  function startCooldown() {
    set({ secondsLeft: RESEND_COOLDOWN_SECONDS });
    tick();
  }

  /** Moves on whenever polling is rescheduled or paused: an answer to an older check is stale. */
  let pollRound = 0;

  function poll(delayMs: number) {
    clearTimeout(pollTimer);
    const round = ++pollRound;
    pollTimer = setTimeout(async () => {
      const result = await checkVerificationStatus(email);
      const outcome = pollOutcome(result);
      if (stopped || state.resending || round !== pollRound) return;
      if (outcome === 'verified') {
        set({ phase: 'verified' });
        events.verified();
      } else if (outcome === 'expired') {
        set({ phase: 'expired' });
        events.expired();
      } else if (outcome === 'refused') {
        set({ phase: 'failed', failure: result.ok ? null : result.message });
      } else {
        poll(POLL_INTERVAL_MS);
      }
    }, delayMs);
  }

  return {
    start() {
      const sending = firstSend(email);
      if (!sending) {
        // Sent on an earlier visit (a reload): only keep watching.
        set({ phase: 'waiting' });
        poll(FIRST_POLL_DELAY_MS);
        return;
      }
      void sending.then((result) => {
        if (stopped) return;
        if (!result.ok) {
          events.sendFailed(result.message);
          return;
        }
        set({ phase: 'waiting' });
        // Already verified (in another tab): nothing was mailed, and the first poll moves on.
        if (result.data.code !== 'already_verified') {
          startCooldown();
          events.sent();
        }
        poll(FIRST_POLL_DELAY_MS);
      });
    },

    async resend() {
      if (state.resending || state.secondsLeft > 0 || state.phase === 'verified' || state.phase === 'sending') return;
      clearTimeout(pollTimer);
      pollRound++;
      set({ resending: true });
      const result = await resendVerification(email);
      if (stopped) return;
      set({ resending: false });
      if (result.ok) {
        set({ phase: 'waiting', failure: null });
        startCooldown();
        events.resent();
      } else {
        events.resendFailed(result.message);
      }
      if (state.phase === 'waiting') poll(FIRST_POLL_DELAY_MS);
    },

    stop() {
      stopped = true;
      clearTimeout(pollTimer);
      clearTimeout(tickTimer);
    },
  };
}

type Watcher = ReturnType<typeof watchVerification>;

/** The page's view of `watchVerification`: its state, and Resend. */
export function useEmailVerification(email: string, events: VerificationEvents) {
  const [state, setState] = useState<VerificationState>({ phase: 'sending', failure: null, secondsLeft: 0, resending: false });
  const watcher = useRef<Watcher | null>(null);
  // The latest callbacks, so timers started earlier call what the page renders now.
  const latest = useRef(events);
  useEffect(() => {
    latest.current = events;
  });

  useEffect(() => {
    const forward: VerificationEvents = {
      sent: () => latest.current.sent(),
      sendFailed: (message) => latest.current.sendFailed(message),
      verified: () => latest.current.verified(),
      expired: () => latest.current.expired(),
      resent: () => latest.current.resent(),
      resendFailed: (message) => latest.current.resendFailed(message),
    };
    const current = watchVerification(email, forward, setState);
    watcher.current = current;
    current.start();
    return () => current.stop();
  }, [email]);

  const resend = useCallback(() => void watcher.current?.resend(), []);
  // §4: disabled while the first mail is on its way, while resending and during the countdown.
  const canResend = !state.resending && state.secondsLeft === 0 && state.phase !== 'verified' && state.phase !== 'sending';
  return { ...state, canResend, resend };
}
