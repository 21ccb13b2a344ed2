import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SupportPage } from '../../src/portal/SupportPage';
import { renderScreen } from './render';

describe('SupportPage', () => {
  it('offers a Contact Us button that writes to the support address', () => {
    renderScreen(<SupportPage />, '/support');

    expect(screen.getByRole('heading', { level: 1, name: 'Get Support' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', 'mailto:help@sage.test');
  });
});
