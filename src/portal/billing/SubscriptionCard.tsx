import { Alert, Button, Card, CardActions, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import type { Subscription } from '../../../contract/billing';
import {
  BILLING_ERRORS,
  createPaymentMethodSession,
  createPortalSession,
  resumeSubscription,
  subscriptionUpdateSuccessUrl,
  type BillingClient,
} from '../../api/billing';
import { track } from '../../analytics';
import { useToast } from '../../ui/toast';
import { assignLocation } from '../../browser';
import { priceText } from '../../billing/plans';
import {
  billingDate,
  cardAction,
  cardMessages,
  CARD_ACTION_LABELS,
  needsPaymentMethod,
  statusBadge,
} from '../../billing/subscriptionRules';

/** Which Stripe page a button opens: the card's action, or Add Payment Method. */
type Opening = 'action' | 'payment-method';

/** The price line: `$9.99/month`. */
function subscriptionPriceText(sub: Subscription): string | null {
  const price = sub.items.data[0]?.price;
  return price && price.unit_amount !== null ? priceText({ ...price, unit_amount: price.unit_amount }) : null;
}

/**
 * One subscription (§2 Subscription card): what it is, its status and date, and the Stripe page
 * that changes it. Every Stripe page returns through `subscriptionUpdateSuccessUrl(client)`.
 */
export function SubscriptionCard({ subscription, client }: { subscription: Subscription; client: BillingClient }) {
  const toast = useToast();
  const headingId = useId();
  const product = subscription.items.data[0]?.price.product;
  const badge = statusBadge(subscription.status);
  const date = billingDate(subscription);
  const price = subscriptionPriceText(subscription);
  const action = cardAction(subscription);
  const addPaymentMethod = needsPaymentMethod(subscription);

  /** The Stripe page to open, and the title of its §8 failure toast. */
  function session(which: Opening) {
    const returnUrl = subscriptionUpdateSuccessUrl(client);
    if (which === 'payment-method') return { start: () => createPaymentMethodSession(returnUrl), failure: BILLING_ERRORS.paymentMethod };
    return action === 'resume'
      ? { start: () => resumeSubscription(subscription.id, returnUrl), failure: BILLING_ERRORS.resume }
      : { start: () => createPortalSession(returnUrl), failure: BILLING_ERRORS.portal };
  }

  const open = useMutation({
    mutationFn: (which: Opening) => session(which).start(),
    onSuccess: ({ url }) => assignLocation(url),
    onError: (error, which) => toast({ title: session(which).failure, description: error.message || undefined, variant: 'destructive' }),
  });
  // The page is leaving for Stripe once the call succeeded: the button keeps saying so until it has.
  const pending = open.isPending || open.isSuccess ? (open.variables ?? null) : null;

  return (
    <Card
      component="article"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Stack spacing={1.5}>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
            <Typography id={headingId} component="h2" variant="h6">
              {product?.name ?? 'Subscription'}
            </Typography>
            <Chip label={badge.label} color={badge.color} size="small" />
          </Stack>
          {product?.description && <Typography color="text.secondary">{product.description}</Typography>}
          {price && (
            <Typography variant="h5" component="p">
              {price}
            </Typography>
          )}
          {date && (
            <Typography variant="body2">
              {date.label}: {date.date}
            </Typography>
          )}
          {cardMessages(subscription).map((message) => (
            <Alert key={message.kind} severity={message.severity} role="note">
              {message.text}
            </Alert>
          ))}
        </Stack>
      </CardContent>
      {(action !== 'none' || addPaymentMethod) && (
        <CardActions disableSpacing sx={{ px: 2, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          {action !== 'none' && (
            <Button
              variant="contained"
              disabled={pending !== null}
              onClick={() => {
                track('Dashboard Action', { action: CARD_ACTION_LABELS[action] });
                open.mutate('action');
              }}
            >
              {pending === 'action' ? 'Opening...' : CARD_ACTION_LABELS[action]}
            </Button>
          )}
          {addPaymentMethod && (
            <Button
              variant="outlined"
              disabled={pending !== null}
              onClick={() => {
                track('Dashboard Action', { action: 'Add Payment Method' });
                open.mutate('payment-method');
              }}
            >
              {pending === 'payment-method' ? 'Opening...' : 'Add Payment Method'}
            </Button>
          )}
        </CardActions>
      )}
    </Card>
  );
}
