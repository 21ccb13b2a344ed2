import { Box, Button, LinearProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MAX_SEATS, type OrgBilling } from '../../../../contract/orgBilling';
import type { Org } from '../../../../contract/orgs';
import { productsQuery } from '../../../api/billing';
import { changeSeats, orgBillingKey, orgCheckout } from '../../../api/orgBilling';
import { orgKey } from '../../../api/orgs';
import { formatCount, formatLongDate } from '../../../ui/format';
import { useToast } from '../../../ui/toast';
import { orgOffers, seatMeterText } from './orgPlanRules';

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : NaN);

/** Stripe's Checkout page, in this tab: the organisation's page reads the outcome on return. */
function useCheckout(org: Org) {
  const toast = useToast();
  return useMutation({
    mutationFn: ({ priceId, seats }: { priceId: string; seats?: number }) => orgCheckout(org.id, priceId, seats),
    onSuccess: (url) => window.location.assign(url),
    onError: (error) => toast({ title: 'Error', description: error.message || 'Checkout could not be opened', variant: 'destructive' }),
  });
}

function SeatMeter({ billing }: { billing: OrgBilling }) {
  const text = seatMeterText(billing);
  return (
    <Stack spacing={1}>
      <Typography>{text}</Typography>
      <LinearProgress
        variant="determinate"
        value={billing.seats.bought === 0 ? 0 : Math.min(100, (billing.seats.assigned / billing.seats.bought) * 100)}
        aria-label="Seats given"
        aria-valuetext={text}
        sx={{ height: 8, borderRadius: 4, maxWidth: 480 }}
      />
    </Stack>
  );
}

/** A plan's seats changed now, prorated by Stripe; never below the seats given. */
function SeatCount({ org, billing }: { org: Org; billing: OrgBilling }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [seats, setSeats] = useState(String(billing.subscription?.seats ?? 1));
  const change = useMutation({
    mutationFn: (count: number) => changeSeats(org.id, count),
    onSuccess: (next) => {
      queryClient.setQueryData(orgBillingKey(org.id), next);
      void queryClient.invalidateQueries({ queryKey: orgKey(org.id) });
      toast({ title: 'Seats changed', description: `${org.name} now has ${next.seats.bought} seats. Stripe prorates the change.` });
    },
    onError: (error) => toast({ title: 'Error', description: error.message || 'The seats could not be changed', variant: 'destructive' }),
  });
  const count = whole(seats);
  const valid = Number.isInteger(count) && count >= Math.max(1, billing.seats.assigned) && count <= MAX_SEATS;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
      <TextField
        label="Seats"
        value={seats}
        onChange={(event) => setSeats(event.target.value)}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-describedby': `org-${org.id}-seats-help` } }}
        error={!valid}
        size="small"
        sx={{ width: 140 }}
      />
      <Button variant="outlined" disabled={!valid || change.isPending} loading={change.isPending} onClick={() => change.mutate(count)}>
        Change seats
      </Button>
      <Typography id={`org-${org.id}-seats-help`} variant="body2" color="text.secondary" sx={{ alignSelf: { sm: 'center' } }}>
        At least the {formatCount(billing.seats.assigned)} given; up to {MAX_SEATS}.
      </Typography>
    </Stack>
  );
}

/** No plan yet: a plan per seat and how many seats, then Stripe's Checkout. */
function BuyPlan({ org, billing }: { org: Org; billing: OrgBilling }) {
  const products = useQuery(productsQuery);
  const checkout = useCheckout(org);
  const plans = orgOffers(products.data?.products ?? []).plans;
  const [priceId, setPriceId] = useState('');
  const [seats, setSeats] = useState('3');
  const chosen = priceId || plans[0]?.priceId || '';
  const count = whole(seats);
  const valid = Number.isInteger(count) && count >= 1 && count <= MAX_SEATS;
  if (products.isPending) return <Typography role="status">Loading the plans...</Typography>;
  if (plans.length === 0) return <Typography color="text.secondary">No plan is for sale on this server.</Typography>;
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        One plan for the studio: each seat gets the plan&apos;s queries every period, and you give seats to members.
        {billing.details ? '' : ' Add the billing details below first: every invoice carries them.'}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          select
          label="Plan"
          value={chosen}
          onChange={(event) => setPriceId(event.target.value)}
          size="small"
          sx={{ minWidth: 280 }}
        >
          {plans.map((plan) => (
            <MenuItem key={plan.priceId} value={plan.priceId}>
              {plan.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Seats"
          value={seats}
          onChange={(event) => setSeats(event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          error={!valid}
          size="small"
          sx={{ width: 120 }}
        />
        <Button
          variant="contained"
          disabled={!valid || !billing.details || checkout.isPending}
          loading={checkout.isPending}
          onClick={() => checkout.mutate({ priceId: chosen, seats: count })}
        >
          {valid ? `Buy ${count} ${count === 1 ? 'seat' : 'seats'}` : 'Buy seats'}
        </Button>
      </Stack>
    </Stack>
  );
}

/** Credit packs bought for the organisation: its members draw on them once their seat's queries are used. */
function SharedPool({ org, billing }: { org: Org; billing: OrgBilling }) {
  const products = useQuery(productsQuery);
  const checkout = useCheckout(org);
  const packs = orgOffers(products.data?.products ?? []).packs;
  return (
    <Stack spacing={1.5}>
      <Typography>
        {formatCount(billing.pool)} shared {billing.pool === 1 ? 'credit' : 'credits'}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Members with a seat draw on them once their seat&apos;s queries for the period are used, within the limit you set for each.
      </Typography>
      {packs.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          {packs.map((pack) => (
            <Button
              key={pack.priceId}
              variant="outlined"
              size="small"
              disabled={!billing.details || checkout.isPending}
              onClick={() => checkout.mutate({ priceId: pack.priceId })}
            >
              Buy {pack.label}
            </Button>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The organisation's plan: seats bought and given, the seat count, and the shared pool. */
export function OrgPlan({ org, billing }: { org: Org; billing: OrgBilling }) {
  const sub = billing.subscription;
  return (
    <Stack spacing={3}>
      {sub ? (
        <Stack spacing={2}>
          <Typography>
            {sub.plan}: {sub.allowancePerSeat === null ? 'Unlimited queries' : `${formatCount(sub.allowancePerSeat)} queries`} per seat each
            period.
            {sub.currentPeriodEnd && ` ${sub.cancelAtPeriodEnd ? 'Ends' : 'Renews'} on ${formatLongDate(sub.currentPeriodEnd)}.`}
          </Typography>
          <SeatMeter billing={billing} />
          <SeatCount key={sub.seats} org={org} billing={billing} />
        </Stack>
      ) : (
        <BuyPlan org={org} billing={billing} />
      )}
      <Box>
        <Typography component="h4" variant="subtitle1" sx={{ fontWeight: 600 }}>
          Shared credits
        </Typography>
        <SharedPool org={org} billing={billing} />
      </Box>
    </Stack>
  );
}
