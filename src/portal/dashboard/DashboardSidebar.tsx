import { List, ListItemButton, ListItemText } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { sectionHash, visibleSections, type DashboardSection } from './sections';

export interface DashboardSidebarProps {
  /** The section on screen, or null when none (Section Not Found). */
  current: DashboardSection | null;
  onNavigate?: () => void;
}

/** The list of enabled dashboard sections; each is a link to its hash. */
export function DashboardSidebar({ current, onNavigate }: DashboardSidebarProps) {
  return (
    <List component="nav" aria-label="Dashboard sections" sx={{ p: 1 }}>
      {visibleSections().map((section) => {
        const selected = current?.id === section.id;
        return (
          <ListItemButton
            key={section.id}
            component={RouterLink}
            to={{ hash: sectionHash(section) }}
            selected={selected}
            aria-current={selected ? 'page' : undefined}
            onClick={onNavigate}
            sx={{ borderRadius: 1 }}
          >
            <ListItemText primary={section.label} />
          </ListItemButton>
        );
      })}
    </List>
  );
}
