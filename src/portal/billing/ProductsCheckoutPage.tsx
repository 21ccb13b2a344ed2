import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Container,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TRIAL_DAYS } from '../../../contract/billing';
import { createCheckoutSession, useProducts, useSubscriptionStatus, webCheckoutUrls } from '../../api/billing';
import { CardGrid, CardsSkeleton } from '../../ui/CardGrid';
import { useToast } from '../../ui/toast';
import { assignLocation } from '../../browser';
import {
  checkoutButtonLabel,
  checkoutFailure,
  checkoutOutcome,
  defaultPrice,
  groupPlans,
  isPopular,
  isYearly,
  priceOptionLabel,
  priceText,
  queriesText,
  yearlyDiscountPercent,
  type Plan,
  type PlanPrice,
} from '../../billing/plans';

const TRIAL_FOOTER = `All subscriptions include a ${TRIAL_DAYS}-day free trial. Cancel anytime during the trial.`;

interface PlanCardProps {
  plan: Plan;
  hasSubscription: boolean;
  trialEligible: boolean;
  /** A checkout is starting (from any card): every button waits. */
  busy: boolean;
  /** This card's checkout is the one starting. */
  processing: boolean;
  onCheckout: (plan: Plan, price: PlanPrice) => void;
}

function PlanCard({ plan, hasSubscription, trialEligible, busy, processing, onCheckout }: PlanCardProps) {
  const headingId = useId();
  const { product, prices, kind } = plan;
  const [selectedId, setSelectedId] = useState(() => defaultPrice(prices)?.id);
  const selected = prices.find((p) => p.id === selectedId) ?? prices[0];
  const discount = yearlyDiscountPercent(prices);
  if (!selected) return null;

  return (
    <Card component="article" variant="outlined" aria-labelledby={headingId} sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flex: 1 }}>
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography id={headingId} component="h3" variant="h6">
              {product.name}
            </Typography>
            {isPopular(product) && <Chip label="Most popular" color="primary" size="small" />}
          </Stack>
          {product.description && <Typography color="text.secondary">{product.description}</Typography>}
          <Typography variant="body2">{queriesText(product, kind)}</Typography>
          {prices.length > 1 && (
            <ToggleButtonGroup
              exclusive
              size="small"
              value={selected.id}
              disabled={busy}
              aria-label={`Price options for ${product.name}`}
              onChange={(_event, value: string | null) => value && setSelectedId(value)}
            >
              {prices.map((price) => (
                <ToggleButton key={price.id} value={price.id} sx={{ gap: 1 }}>
                  {priceOptionLabel(price)}
                  {discount !== null && isYearly(price) && (
                    <>
                      {' '}
                      <Box component="span" sx={{ color: 'success.main', fontWeight: 600 }}>
                        Save {discount}%
                      </Box>
                    </>
                  )}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          )}
          <Typography variant="h4" component="p">
            {priceText(selected)}
          </Typography>
        </Stack>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button variant="contained" fullWidth disabled={busy} onClick={() => onCheckout(plan, selected)}>
          {processing ? 'Processing...' : checkoutButtonLabel(selected, hasSubscription, trialEligible)}
        </Button>
      </CardActions>
    </Card>
  );
}

function PlanSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} component="h2" variant="h5" gutterBottom>
        {title}
      </Typography>
      <CardGrid>{children}</CardGrid>
    </Box>
  );
}

/**
 * /products-checkout (§2 Products, §4 Checkout): subscription plans and credit packs; a chosen
 * price opens Stripe Checkout. From the web portal (`client=web`) Checkout returns to the
 * dashboard or here; otherwise the server's defaults for the plugin apply.
 */
export function ProductsCheckoutPage() {
  const [searchParams] = useSearchParams();
  const fromWeb = searchParams.get('client') === 'web';
  const products = useProducts();
  const status = useSubscriptionStatus();
  const hasSubscription = status.data?.hasSubscription ?? false;
  const trialEligible = status.data?.trialEligible ?? true;
  const toast = useToast();
  const checkout = useMutation({
    mutationFn: async ({ plan, price }: { plan: Plan; price: PlanPrice }) => {
      const answer = await createCheckoutSession({
        priceId: price.id,
        productId: plan.product.id,
        ...(fromWeb ? webCheckoutUrls() : {}),
      });
      const outcome = checkoutOutcome(answer);
      // An answer without a Stripe page fails the checkout like a refused call.
      if ('error' in outcome) throw new Error(outcome.error);
      return outcome.url;
    },
    onSuccess: (url) => assignLocation(url),
    onError: (error) => toast({ title: 'Checkout Error', description: checkoutFailure(error), variant: 'destructive' }),
  });
  // The page is leaving for Stripe once the call succeeded: the card keeps saying so until it has.
  const processing = checkout.isPending || checkout.isSuccess ? (checkout.variables?.plan.product.id ?? null) : null;

  const card = (plan: Plan) => (
    <PlanCard
      key={plan.product.id}
      plan={plan}
      hasSubscription={hasSubscription}
      trialEligible={trialEligible}
      busy={processing !== null}
      processing={processing === plan.product.id}
      onCheckout={(p, price) => {
        if (!processing) checkout.mutate({ plan: p, price });
      }}
    />
  );

  let body: ReactNode;
  if (products.isPending) {
    body = <CardsSkeleton count={3} label="Loading products" />;
  } else if (products.isError) {
    body = (
      <Alert severity="error">
        <AlertTitle>Error Loading Products</AlertTitle>
        {products.error.message}
      </Alert>
    );
  } else {
    const { subscriptions, credits } = groupPlans(products.data.products);
    body =
      subscriptions.length + credits.length === 0 ? (
        <Box sx={{ textAlign: 'center', py: 6 }}>
          <Typography component="h2" variant="h5" gutterBottom>
            No Products Available
          </Typography>
          <Typography color="text.secondary">There are no plans on sale right now. Please check back later.</Typography>
        </Box>
      ) : (
        <Stack spacing={5}>
          {subscriptions.length > 0 && <PlanSection title="Subscriptions">{subscriptions.map(card)}</PlanSection>}
          {credits.length > 0 && <PlanSection title="Credits & Add-ons">{credits.map(card)}</PlanSection>}
          {trialEligible && (
            <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
              {TRIAL_FOOTER}
            </Typography>
          )}
        </Stack>
      );
  }

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 4, sm: 6 } }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', mb: 5 }}>
        <Typography component="h1" variant="h3">
          Choose Your Plan
        </Typography>
        <Typography color="text.secondary">Pick the plan that fits how you use Sage in Unreal Engine.</Typography>
        {hasSubscription && <Chip label="You have an active subscription" color="success" />}
      </Stack>
      {body}
    </Container>
  );
}
