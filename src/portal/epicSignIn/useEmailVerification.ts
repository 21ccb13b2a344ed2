import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { RESEND_COOLDOWN_MS, VERIFICATION_ERROR_CODES, type SendVerificationResponse } from '../../../contract/emailVerification';
import { HttpError, NO_ANSWER } from '../../api/client';
import { checkVerificationStatus, resendVerification, sendVerification } from '../../api/epic';

/** §4/§9: the first status check 1 s after a send, then every 3 s. */
const FIRST_POLL_DELAY_MS = 1000;
const POLL_INTERVAL_MS = 3000;

export type VerificationPhase = 'sending' | 'waiting' | 'verified' | 'expired' | 'failed';

/** What the page says when something happens; the hook decides when. */
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

/**
 * One send per e-mail even when React mounts the page twice (StrictMode, a quick remount): the
 * second mount gets the first mount's answer instead of sending again.
 */
const sendsInFlight = new Map<string, Promise<SendVerificationResponse>>();

function sendOnce(email: string): Promise<SendVerificationResponse> {
  const key = sentFlagKey(email);
  const inFlight = sendsInFlight.get(key);
  if (inFlight) return inFlight;
  sessionStorage.setItem(key, '1');
  const sending = sendVerification(email)
    .catch((error: unknown) => {
      // §4: a failed send clears the flag, so the next visit tries again.
      sessionStorage.removeItem(key);
      throw error;
    })
    .finally(() => sendsInFlight.delete(key));
  sendsInFlight.set(key, sending);
  return sending;
}

/** Sent on an earlier visit (a reload) and not on its way now: the page only watches. */
const sentEarlier = (email: string) => sessionStorage.getItem(sentFlagKey(email)) !== null && !sendsInFlight.has(sentFlagKey(email));

/** The status query's data: where the link stands; `firstCheck` until the first check after a (re)send. */
interface Watch {
  phase: VerificationPhase;
  failure?: string;
  firstCheck?: boolean;
}

/** One status check, branching on the server's error code (never its message). */
async function checkStatus(email: string): Promise<Watch> {
  try {
    const { verified } = await checkVerificationStatus(email);
    return { phase: verified ? 'verified' : 'waiting' };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.code === VERIFICATION_ERROR_CODES.expired) return { phase: 'expired' };
    // Refused (another browser, another address): asking again would get the same answer. Network
    // failures, 5xx and "slow down" just wait for the next check.
    const refused = error.status !== NO_ANSWER && error.status < 500 && error.status !== 429;
    return refused ? { phase: 'failed', failure: error.message } : { phase: 'waiting' };
  }
}

/**
 * §9: the seconds until Resend is allowed again. Counted by a timer of its own rather than by
 * renders, so the countdown keeps time whenever React gets to draw it.
 */
function useResendCooldown() {
  const [secondsLeft, setSecondsLeft] = useState(0);
  const ticking = useRef<ReturnType<typeof setInterval>>(undefined);
  useEffect(() => () => clearInterval(ticking.current), []);
  const start = useCallback(() => {
    let left = RESEND_COOLDOWN_MS / 1000;
    setSecondsLeft(left);
    clearInterval(ticking.current);
    ticking.current = setInterval(() => {
      setSecondsLeft(--left);
      if (left === 0) clearInterval(ticking.current);
    }, 1000);
  }, []);
  return [secondsLeft, start] as const;
}

/**
 * The verification page's mechanism (§4 Email verification): send once, poll the status until the
 * link is opened, expires or is refused, resend with a 60 s cooldown and polling paused meanwhile.
 */
export function useEmailVerification(email: string, events: VerificationEvents) {
  const queryClient = useQueryClient();
  const queryKey = ['email-verification', email];
  const [secondsLeft, startCooldown] = useResendCooldown();
  const send = useMutation({ mutationFn: () => sendOnce(email) });
  const resending = useMutation({ mutationFn: () => resendVerification(email) });

  const status = useQuery<Watch>({
    queryKey,
    queryFn: () => checkStatus(email),
    // Never fetched on mount (initial data that does not go stale): the checks are the interval's,
    // started by a send (or at once after a reload), 1 s apart first and 3 s apart after.
    initialData: () => ({ phase: sentEarlier(email) ? 'waiting' : 'sending', firstCheck: true }),
    staleTime: Infinity,
    refetchInterval: ({ state: { data } }) =>
      data?.phase !== 'waiting' ? false : data.firstCheck ? FIRST_POLL_DELAY_MS : POLL_INTERVAL_MS,
    // The mail is opened in another tab or on a phone: keep asking while this tab is hidden.
    refetchIntervalInBackground: true,
    // §4: no checks while a resend is on its way.
    enabled: !resending.isPending,
    // A later visit of the page starts from its own send, not from this visit's answer.
    gcTime: 0,
  });
  const { phase, failure = null } = status.data;
  /** A (new) link is out: the next check is 1 s from now. */
  const watchAgain = () => queryClient.setQueryData<Watch>(queryKey, { phase: 'waiting', firstCheck: true });

  const sendFirstMail = useEffectEvent(() => {
    if (phase !== 'sending') return; // Sent on an earlier visit: only watch.
    send.mutate(undefined, {
      onSuccess: ({ code }) => {
        // Already verified (in another tab): nothing was mailed, and the first check moves on.
        if (code !== 'already_verified') {
          startCooldown();
          events.sent();
        }
        watchAgain();
      },
      onError: (error) => events.sendFailed(error.message),
    });
  });
  useEffect(() => sendFirstMail(), []);

  const announce = useEffectEvent((reached: VerificationPhase) => {
    if (reached === 'verified') events.verified();
    if (reached === 'expired') events.expired();
  });
  useEffect(() => announce(phase), [phase]);

  // §4: disabled while the first mail is on its way, while resending and during the countdown.
  const canResend = !resending.isPending && secondsLeft === 0 && phase !== 'verified' && phase !== 'sending';
  const resend = () => {
    if (!canResend) return;
    // A check on its way now would answer for the old link.
    void queryClient.cancelQueries({ queryKey });
    resending.mutate(undefined, {
      onSuccess: () => {
        startCooldown();
        events.resent();
        watchAgain();
      },
      onError: (error) => {
        events.resendFailed(error.message);
        // An expired or refused link stays so until a resend succeeds; otherwise checks resume.
        if (phase === 'waiting') watchAgain();
      },
    });
  };

  return { phase, failure, secondsLeft, resending: resending.isPending, canResend, resend };
}
