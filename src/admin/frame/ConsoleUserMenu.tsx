import { Button, Menu, MenuItem } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { createAuthProvider } from '../../authProvider/authProvider';
import { useCurrentUser } from '../../authProvider/session';
import { consoleTranslate as translate } from '../i18n';
import { AccountIcon } from '../icons';

/** The app bar's user menu: the signed-in username, and Logout, which ends the session (§2). */
export function ConsoleUserMenu() {
  const queryClient = useQueryClient();
  const username = useCurrentUser().data?.username;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (!username) return null;
  // The button shows the username, and its name starts with what it shows (WCAG 2.5.3).
  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountIcon />}
        aria-label={translate('admin.userMenu', { name: username })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{
          textTransform: 'none',
          minWidth: 0,
          maxWidth: 240,
          '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } },
          // On a phone the icon alone: the name stays the button's.
          '& .console-username': {
            display: { xs: 'none', sm: 'inline' },
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          },
        }}
      >
        <span className="console-username">{username}</span>
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void createAuthProvider(queryClient).logout()}>{translate('ra.auth.logout')}</MenuItem>
      </Menu>
    </>
  );
}
