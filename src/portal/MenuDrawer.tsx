import { Box, Divider, Drawer, IconButton, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useId } from 'react';
import { NavLink } from 'react-router-dom';
import { CloseIcon } from '../ui/icons';
import { SessionButton } from './NavBar';
import type { NavItem, SessionAction } from './navItems';

function DrawerLinks({ items, action, onNavigate }: { items: NavItem[]; action: SessionAction; onNavigate: () => void }) {
  return (
    <Box component="nav" aria-label="Main menu">
      <List>
        {items.map((item) => (
          <ListItem key={item.label} disablePadding>
            {item.kind === 'external' ? (
              <ListItemButton component="a" href={item.href} onClick={onNavigate}>
                <ListItemText primary={item.label} />
              </ListItemButton>
            ) : (
              <ListItemButton component={NavLink} to={item.to} onClick={onNavigate}>
                <ListItemText primary={item.label} />
              </ListItemButton>
            )}
          </ListItem>
        ))}
      </List>
      {action !== 'none' && (
        <Box sx={{ px: 2, pt: 1 }}>
          <SessionButton action={action} onNavigate={onNavigate} fullWidth />
        </Box>
      )}
    </Box>
  );
}

/** §2: on a phone the links live in a side drawer, 300 px wide (400 on larger screens); a link closes it. */
export function MenuDrawer({
  id,
  open,
  items,
  action,
  onClose,
}: {
  id: string;
  open: boolean;
  items: NavItem[];
  action: SessionAction;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{
        paper: { id, role: 'dialog', 'aria-labelledby': titleId, sx: { width: { xs: 300, sm: 400 } } },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
        <Typography id={titleId} component="h2" variant="h6">
          Menu
        </Typography>
        <IconButton aria-label="Close menu" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <DrawerLinks items={items} action={action} onNavigate={onClose} />
    </Drawer>
  );
}
