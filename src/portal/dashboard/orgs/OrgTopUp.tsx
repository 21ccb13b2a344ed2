import { useQuery } from '@tanstack/react-query';
import type { Org } from '../../../../contract/orgs';
import type { TopUpPauseReason } from '../../../../contract/topUp';
import { fetchOrgTopUp, orgBillingKey, orgTopUpKey, saveOrgTopUp } from '../../../api/orgBilling';
import { TopUpFrame, TopUpPanel } from '../topUp/TopUpFrame';

/** Why the studio's top-up is paused, and what to do. */
const PAUSED: Record<TopUpPauseReason, string> = {
  authentication_required:
    "The studio's card needs its holder to confirm the payment. Buy a credit pack by hand above, then turn top-up back on.",
  card_declined: "The studio's card was declined. Buy a credit pack by hand above with a card that works, then turn top-up back on.",
  no_saved_card: 'No card is saved for the studio. Buy a credit pack by hand above to save one, then turn top-up back on.',
};

/** Automatic top-up of the studio's shared pool (owner, billing; issue 39): the Usage section's card, for the pool. */
export function OrgTopUp({ org }: { org: Org }) {
  const topUp = useQuery({ queryKey: orgTopUpKey(org.id), queryFn: () => fetchOrgTopUp(org.id) });
  return (
    <TopUpFrame title="Automatic top-up of the shared pool" place="part" topUp={topUp}>
      {(view) => (
        <TopUpPanel
          view={view}
          save={(settings) => saveOrgTopUp(org.id, settings)}
          queryKey={orgTopUpKey(org.id)}
          balanceKey={orgBillingKey(org.id)}
          pausedText={PAUSED}
          noSavedCard="Automatic top-up pays with the card saved when the studio buys a credit pack: buy one above once, then turn it on here."
          switchLabel="Top up the shared pool automatically when it runs low"
        />
      )}
    </TopUpFrame>
  );
}
