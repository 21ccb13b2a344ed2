import { okResponseSchema } from '../../../../contract/auth';
import { ERROR_CODES } from '../../../../contract/errors';
import { secondFactorResetRequestSchema } from '../../../../contract/secondFactor';
import { actorOf, userParams } from '../../../http/adminTarget';
import { NO_SUCH_USER } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';
import type { App, RouteContext } from '../../../http/types';

/** The support path (issue 40, decision 046): staff turn off a user's two-step sign-in after checking who asks. */
export async function adminSecondFactorRoutes(app: App, { services }: RouteContext) {
  const reset = access.staff('resetSecondFactor', {
    errors: {
      400: 'No identity check given',
      403: `Support resetting a member of staff (${ERROR_CODES.roleForbidden})`,
      404: NO_SUCH_USER,
      409: 'The user has no two-step sign-in (second_factor_not_enrolled)',
    },
  });
  app.post(
    '/users/:id/second-factor/reset',
    { schema: { params: userParams, body: secondFactorResetRequestSchema, response: { 200: okResponseSchema } }, config: reset },
    async (request) => services.secondFactor.reset(actorOf(request.user), request.params.id, request.body.identityCheck),
  );
}
