import { Box, ListItemIcon, MenuItem, MenuList } from '@mui/material';
import { NavLink } from 'react-router-dom';
import { consoleTranslate as translate } from '../i18n';
import { CONSOLE_BASE, CONSOLE_MENU } from '../consolePages';

/** Hidden from sight, kept for screen readers: a collapsed menu's entries keep their names. */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * The console's tabs (§2), as links: the browser's own navigation, so an entry works from the
 * server's markup and its page opens whether or not react-admin runs yet. `collapsed` shows the
 * icons only (a laptop's narrow sidebar), each still named by its words.
 */
export function ConsoleMenu({ collapsed = false, onChoose }: { collapsed?: boolean; onChoose?: () => void }) {
  return (
    <MenuList sx={{ py: 1 }}>
      {CONSOLE_MENU.map(({ path, label, icon: Icon }) => {
        const words = translate(label);
        return (
          <MenuItem
            key={path}
            component={NavLink}
            to={path === '/' ? CONSOLE_BASE : `${CONSOLE_BASE}${path}`}
            end={path === '/'}
            onClick={onChoose}
            sx={{
              color: 'text.secondary',
              py: 1,
              '&.active': { color: 'text.primary', fontWeight: 500 },
              '&.active .MuiListItemIcon-root': { color: 'text.primary' },
            }}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>
              <Icon fontSize="small" />
            </ListItemIcon>
            {collapsed ? (
              <Box component="span" sx={visuallyHidden}>
                {words}
              </Box>
            ) : (
              words
            )}
          </MenuItem>
        );
      })}
    </MenuList>
  );
}
