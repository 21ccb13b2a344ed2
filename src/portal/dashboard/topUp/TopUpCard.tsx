import { Link } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { saveTopUp, topUpQuery, useTopUp } from '../../../api/topUp';
import { usageSummaryQuery } from '../../../api/usage';
import { TopUpFrame, TopUpPanel } from './TopUpFrame';
import { PAUSED_TEXT } from './topUpStatus';

const BUY_BY_HAND = '/products-checkout?client=web';

/** The Usage section's automatic top-up (issue 39): its state, this month's cost against the cap, and its settings. */
export function TopUpCard() {
  const topUp = useTopUp();
  return (
    <TopUpFrame title="Automatic top-up" place="card" topUp={topUp}>
      {(view) => (
        <TopUpPanel
          view={view}
          save={saveTopUp}
          queryKey={topUpQuery.queryKey}
          balanceKey={usageSummaryQuery.queryKey}
          pausedText={PAUSED_TEXT}
          buyByHand={BUY_BY_HAND}
          noSavedCard={
            <>
              Automatic top-up pays with the card you save when you buy credits.{' '}
              <Link component={RouterLink} to={BUY_BY_HAND}>
                Buy a credit pack
              </Link>{' '}
              once, then turn it on here.
            </>
          }
        />
      )}
    </TopUpFrame>
  );
}
