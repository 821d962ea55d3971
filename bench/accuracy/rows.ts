/**
 * Realistic addresses written for the accuracy corpus (issue 15): real streets, postcodes and towns
 * as each country writes them, approximate coordinates. One line per address:
 * `street | house number | postcode | city | lat | lng [| state]`. House numbers carry letters and
 * additions the way the national register writes them (BAG `2-H`, `92B`; DAR `12A`).
 */
const RAW: Record<string, string> = {
  NL: `
Prinsengracht | 2-H | 1015 DV | Amsterdam | 52.3802 | 4.8887
Prinsengracht | 2-1 | 1015 DV | Amsterdam | 52.3802 | 4.8887
Prinsengracht | 2-2 | 1015 DV | Amsterdam | 52.3802 | 4.8887
Tweede Helmersstraat | 12-H | 1054 CM | Amsterdam | 52.3622 | 4.8753
Tweede Helmersstraat | 12-2 | 1054 CM | Amsterdam | 52.3622 | 4.8753
Kalverstraat | 92A | 1012 PH | Amsterdam | 52.3703 | 4.8912
Kalverstraat | 92B | 1012 PH | Amsterdam | 52.3703 | 4.8912
Nieuwendijk | 40-H | 1012 MR | Amsterdam | 52.3768 | 4.8941
Nieuwendijk | 40-1 | 1012 MR | Amsterdam | 52.3768 | 4.8941
Marnixstraat | 250-2 | 1016 TL | Amsterdam | 52.3708 | 4.8786
Nieuwe Binnenweg | 150A | 3015 BH | Rotterdam | 51.9148 | 4.4650
Westersingel | 40 | 3014 GT | Rotterdam | 51.9186 | 4.4722
Lange Voorhout | 34 | 2514 EE | Den Haag | 52.0833 | 4.3103
Grote Marktstraat | 12 | 2511 BJ | Den Haag | 52.0771 | 4.3103
Stationsweg | 2 | 2312 AV | Leiden | 52.1637 | 4.4839
Breestraat | 110 | 2311 CV | Leiden | 52.1588 | 4.4903
Vismarkt | 14 | 9711 KS | Groningen | 53.2175 | 6.5643
Stratumseind | 20 | 5611 ER | Eindhoven | 51.4385 | 5.4799
Grote Houtstraat | 70 | 2011 SR | Haarlem | 52.3788 | 4.6340
Gedempte Oude Gracht | 40 | 2011 GT | Haarlem | 52.3795 | 4.6357
Sint Jacobsstraat | 10 | 3511 BR | Utrecht | 52.0940 | 5.1180
Burgemeester Reigerstraat | 50 | 3581 KP | Utrecht | 52.0880 | 5.1330
Van Welderenstraat | 12 | 6511 MK | Nijmegen | 51.8446 | 5.8664
Hoogstraat | 12 | 3011 PR | Rotterdam | 51.9212 | 4.4873
`,
  DE: `
Hauptstraße | 5a | 69117 | Heidelberg | 49.4112 | 8.7068
Kurfürstendamm | 21 | 10719 | Berlin | 52.5034 | 13.3309
Schloßstraße | 10 | 12163 | Berlin | 52.4595 | 13.3238
Müllerstraße | 30 | 13353 | Berlin | 52.5447 | 13.3619
Straße des 17. Juni | 135 | 10623 | Berlin | 52.5127 | 13.3269
Königstraße | 1 | 70173 | Stuttgart | 48.7822 | 9.1793
Maximilianstraße | 17 | 80539 | München | 48.1391 | 11.5835
Leopoldstraße | 50 | 80802 | München | 48.1590 | 11.5857
Mönckebergstraße | 7 | 20095 | Hamburg | 53.5502 | 10.0007
Jungfernstieg | 10 | 20354 | Hamburg | 53.5527 | 9.9926
Hohe Straße | 52 | 50667 | Köln | 50.9372 | 6.9566
Schildergasse | 30 | 50667 | Köln | 50.9363 | 6.9537
Zeil | 100 | 60313 | Frankfurt am Main | 50.1146 | 8.6838
Am Markt | 1 | 28195 | Bremen | 53.0758 | 8.8072
Prager Straße | 10 | 01069 | Dresden | 51.0456 | 13.7355
Karl-Liebknecht-Straße | 9 | 04107 | Leipzig | 51.3296 | 12.3747
Königsallee | 60 | 40212 | Düsseldorf | 51.2236 | 6.7791
Bahnhofstraße | 12 | 90402 | Nürnberg | 49.4466 | 11.0822
`,
  DK: `
Vesterbrogade | 12 | 1620 | København V | 55.6741 | 12.5629
Istedgade | 12B | 1650 | København V | 55.6716 | 12.5594
Istedgade | 12A | 1650 | København V | 55.6716 | 12.5594
Gammel Kongevej | 10 | 1610 | København V | 55.6776 | 12.5595
Sønder Boulevard | 20 | 1720 | København V | 55.6680 | 12.5567
Søndre Fasanvej | 5 | 2000 | Frederiksberg | 55.6770 | 12.5190
Frederiksberg Allé | 1 | 1820 | Frederiksberg C | 55.6753 | 12.5550
Åboulevard | 13 | 1635 | København V | 55.6822 | 12.5554
Nørregade | 7 | 1165 | København K | 55.6794 | 12.5718
Store Kongensgade | 40 | 1264 | København K | 55.6848 | 12.5886
Sankt Peders Stræde | 19 | 1453 | København K | 55.6783 | 12.5675
Gammel Strand | 48 | 1202 | København K | 55.6775 | 12.5784
Østerbrogade | 56 | 2100 | København Ø | 55.6987 | 12.5790
Nørrebrogade | 34 | 2200 | København N | 55.6887 | 12.5558
Ryesgade | 3 | 2200 | København N | 55.6913 | 12.5680
Amagerbrogade | 100 | 2300 | København S | 55.6640 | 12.6007
Strandgade | 14 | 2791 | Dragør | 55.5947 | 12.6721
Kongevejen | 8 | 2791 | Dragør | 55.5931 | 12.6620
Søndergade | 1 | 8000 | Aarhus C | 56.1542 | 10.2087
Åboulevarden | 30 | 8000 | Aarhus C | 56.1565 | 10.2066
Vestergade | 10 | 5000 | Odense C | 55.3952 | 10.3842
Algade | 15 | 4000 | Roskilde | 55.6415 | 12.0845
Hovedgaden | 5 | 2800 | Kongens Lyngby | 55.7714 | 12.5033
Boulevarden | 10 | 9000 | Aalborg | 57.0463 | 9.9199
`,
  PT: `
Rua Augusta | 100 | 1100-053 | Lisboa | 38.7105 | -9.1373
Avenida da Liberdade | 110 | 1250-146 | Lisboa | 38.7172 | -9.1434
Rua do Ouro | 40 | 1100-060 | Lisboa | 38.7095 | -9.1370
Praça do Comércio | 1 | 1100-148 | Lisboa | 38.7076 | -9.1365
Rua Garrett | 50 | 1200-203 | Lisboa | 38.7107 | -9.1418
Avenida de Roma | 20 | 1000-265 | Lisboa | 38.7441 | -9.1390
Rua de São Bento | 300 | 1200-821 | Lisboa | 38.7155 | -9.1540
Largo do Chiado | 5 | 1200-108 | Lisboa | 38.7106 | -9.1425
Avenida Almirante Reis | 50 | 1150-019 | Lisboa | 38.7264 | -9.1354
Rua do Carmo | 30 | 1200-093 | Lisboa | 38.7114 | -9.1398
Rua de Santa Catarina | 100 | 4000-442 | Porto | 41.1486 | -8.6063
Avenida dos Aliados | 50 | 4000-064 | Porto | 41.1480 | -8.6110
Rua das Flores | 20 | 4050-262 | Porto | 41.1432 | -8.6135
Rua Cândido dos Reis | 60 | 4050-151 | Porto | 41.1471 | -8.6145
Rua de Júlio Dinis | 800 | 4050-318 | Porto | 41.1570 | -8.6275
Rua Ferreira Borges | 10 | 3000-180 | Coimbra | 40.2095 | -8.4290
Avenida Fernão de Magalhães | 200 | 3000-172 | Coimbra | 40.2125 | -8.4335
Avenida da República | 1000 | 4430-192 | Vila Nova de Gaia | 41.1270 | -8.6100
`,
  GB: `
Oxford Street | 100 | W1D 1LL | London | 51.5163 | -0.1340
Abbey Road | 3 | NW8 9AY | London | 51.5320 | -0.1779
Park Lane | 45 | W1K 1PN | London | 51.5067 | -0.1527
High Street | 12 | OX1 4AP | Oxford | 51.7522 | -1.2550
Castle Street | 5 | EH2 3AH | Edinburgh | 55.9514 | -3.2030
Deansgate | 100 | M3 2GP | Manchester | 53.4808 | -2.2484
Bold Street | 50 | L1 4EA | Liverpool | 53.4022 | -2.9792
Queen Street | 20 | CF10 2BU | Cardiff | 51.4818 | -3.1740
Corporation Street | 40 | B2 4LP | Birmingham | 52.4810 | -1.8963
St Andrew Street | 20 | CB2 3AX | Cambridge | 52.2040 | 0.1238
King's Parade | 1 | CB2 1SJ | Cambridge | 52.2043 | 0.1177
North Road | 10 | BN1 1YA | Brighton | 50.8262 | -0.1392
Buchanan Street | 50 | G1 3HL | Glasgow | 55.8614 | -4.2537
Grey Street | 15 | NE1 6EE | Newcastle upon Tyne | 54.9725 | -1.6126
Royal Crescent | 16 | BA1 2LR | Bath | 51.3870 | -2.3669
`,
  US: `
East Baltimore Street | 1700 | 21231 | Baltimore | 39.2910 | -76.5946 | MD
Thames Street | 1600 | 21231 | Baltimore | 39.2823 | -76.5924 | MD
South Broadway | 800 | 21231 | Baltimore | 39.2857 | -76.5932 | MD
Main Street | 123 | 62701 | Springfield | 39.8017 | -89.6436 | IL
North Michigan Avenue | 875 | 60611 | Chicago | 41.8989 | -87.6237 | IL
West Madison Street | 100 | 60602 | Chicago | 41.8819 | -87.6319 | IL
Market Street | 1355 | 94103 | San Francisco | 37.7767 | -122.4167 | CA
Mission Street | 2000 | 94110 | San Francisco | 37.7638 | -122.4194 | CA
South Congress Avenue | 1500 | 78704 | Austin | 30.2490 | -97.7497 | TX
Peachtree Street Northeast | 191 | 30303 | Atlanta | 33.7590 | -84.3870 | GA
Elm Street | 411 | 75202 | Dallas | 32.7795 | -96.8085 | TX
Beacon Street | 24 | 02133 | Boston | 42.3587 | -71.0626 | MA
Commonwealth Avenue | 500 | 02215 | Boston | 42.3489 | -71.0955 | MA
Broadway | 1600 | 10019 | New York | 40.7614 | -73.9845 | NY
West 42nd Street | 100 | 10036 | New York | 40.7546 | -73.9845 | NY
Sunset Boulevard | 8000 | 90046 | Los Angeles | 34.0979 | -118.3660 | CA
Pike Street | 1500 | 98101 | Seattle | 47.6097 | -122.3331 | WA
North Main Street | 200 | 03301 | Concord | 43.2070 | -71.5376 | NH
Southwest Broadway | 1000 | 97205 | Portland | 45.5175 | -122.6811 | OR
`,
  FR: `
Rue de la République | 10 | 69002 | Lyon | 45.7640 | 4.8357
Boulevard Saint-Germain | 100 | 75005 | Paris | 48.8520 | 2.3430
Rue Sainte-Catherine | 50 | 33000 | Bordeaux | 44.8400 | -0.5740
Avenue Jean Médecin | 20 | 06000 | Nice | 43.7010 | 7.2680
La Canebière | 30 | 13001 | Marseille | 43.2975 | 5.3780
`,
  AT: `
Mariahilfer Straße | 100 | 1060 | Wien | 48.1966 | 16.3417
Stephansplatz | 1 | 1010 | Wien | 48.2085 | 16.3731
Kärntner Straße | 20 | 1010 | Wien | 48.2056 | 16.3712
Getreidegasse | 9 | 5020 | Salzburg | 47.8000 | 13.0433
Herrengasse | 5 | 8010 | Graz | 47.0706 | 15.4395
Landstraße | 30 | 4020 | Linz | 48.3025 | 14.2890
`,
  CH: `
Bahnhofstrasse | 10 | 8001 | Zürich | 47.3686 | 8.5392
Marktgasse | 20 | 3011 | Bern | 46.9483 | 7.4448
Rue du Rhône | 50 | 1204 | Genève | 46.2036 | 6.1479
Freie Strasse | 30 | 4001 | Basel | 47.5570 | 7.5902
Pilatusstrasse | 15 | 6003 | Luzern | 47.0490 | 8.3055
`,
};

/**
 * Rows added for issue 21, after the earlier ones so that the earlier cases stay as they were (the
 * case builder draws its random choices in corpus order): ES, IT, AD, MC, and streets with
 * particles (`Rua dos Fanqueiros`, `Calle del Príncipe`), numbers inside the name (`Avenida 24 de
 * Julho`, `Via XX Settembre`, `Avenue du 8 Mai 1945`, `5th Avenue`), Danish letters and prefixes
 * (`Blågårdsgade`, `Nordre Frihavnsgade`, `Kongens Nytorv`, `Aabenraa`) and London postcodes.
 */
const RAW_21: Record<string, string> = {
  ES: `
Calle de Alcalá | 45 | 28014 | Madrid | 40.4190 | -3.6960
Calle Mayor | 10 | 28013 | Madrid | 40.4160 | -3.7070
Calle del Príncipe | 12 | 28012 | Madrid | 40.4150 | -3.6990
Gran Vía | 28 | 28013 | Madrid | 40.4200 | -3.7020
Paseo de la Castellana | 100 | 28046 | Madrid | 40.4400 | -3.6900
Calle de Atocha | 20 | 28012 | Madrid | 40.4130 | -3.7030
Plaza de la Villa | 5 | 28005 | Madrid | 40.4155 | -3.7100
Passeig de Gràcia | 43 | 08007 | Barcelona | 41.3917 | 2.1649
Carrer de Pelai | 10 | 08001 | Barcelona | 41.3860 | 2.1680
Calle Sierpes | 30 | 41004 | Sevilla | 37.3920 | -5.9950
Calle de Colón | 20 | 46004 | Valencia | 39.4700 | -0.3730
Calle Larios | 5 | 29005 | Málaga | 36.7190 | -4.4210
`,
  IT: `
Via del Corso | 100 | 00186 | Roma | 41.9010 | 12.4800
Via dei Condotti | 10 | 00187 | Roma | 41.9050 | 12.4810
Via XX Settembre | 12 | 00187 | Roma | 41.9050 | 12.4930
Via IV Novembre | 119 | 00187 | Roma | 41.8970 | 12.4850
Corso Vittorio Emanuele II | 100 | 00186 | Roma | 41.8980 | 12.4720
Piazza della Signoria | 5 | 50122 | Firenze | 43.7696 | 11.2558
Via della Scala | 10 | 50123 | Firenze | 43.7740 | 11.2470
Via Toledo | 200 | 80134 | Napoli | 40.8430 | 14.2490
Via Monte Napoleone | 8 | 20121 | Milano | 45.4685 | 9.1950
Corso Buenos Aires | 20 | 20124 | Milano | 45.4780 | 9.2100
Via Garibaldi | 5 | 10122 | Torino | 45.0730 | 7.6800
Via XX Settembre | 40 | 16121 | Genova | 44.4060 | 8.9370
`,
  AD: `
Avinguda Meritxell | 20 | AD500 | Andorra la Vella | 42.5070 | 1.5300
Avinguda del Príncep Benlloch | 30 | AD500 | Andorra la Vella | 42.5060 | 1.5200
Carrer de la Vall | 5 | AD500 | Andorra la Vella | 42.5065 | 1.5210
Plaça del Poble | 1 | AD500 | Andorra la Vella | 42.5068 | 1.5230
Avinguda Carlemany | 50 | AD700 | Escaldes-Engordany | 42.5090 | 1.5380
Avinguda Fiter i Rossell | 10 | AD700 | Escaldes-Engordany | 42.5110 | 1.5400
Carrer de la Unió | 6 | AD700 | Escaldes-Engordany | 42.5095 | 1.5370
Avinguda de Sant Antoni | 15 | AD400 | La Massana | 42.5450 | 1.5140
Avinguda Verge de Canòlich | 40 | AD600 | Sant Julià de Lòria | 42.4640 | 1.4910
Avinguda François Mitterrand | 20 | AD200 | Encamp | 42.5340 | 1.5800
`,
  MC: `
Boulevard des Moulins | 12 | 98000 | Monaco | 43.7410 | 7.4250
Avenue de la Costa | 7 | 98000 | Monaco | 43.7420 | 7.4240
Boulevard Princesse Charlotte | 20 | 98000 | Monaco | 43.7400 | 7.4220
Avenue Princesse Grace | 10 | 98000 | Monaco | 43.7460 | 7.4330
Rue Grimaldi | 15 | 98000 | Monaco | 43.7330 | 7.4200
Boulevard du Larvotto | 30 | 98000 | Monaco | 43.7450 | 7.4320
Avenue de Monte-Carlo | 2 | 98000 | Monaco | 43.7390 | 7.4270
Rue du Portier | 4 | 98000 | Monaco | 43.7430 | 7.4300
`,
  DK: `
Nordre Frihavnsgade | 10 | 2100 | København Ø | 55.6977 | 12.5845
Kongens Nytorv | 13 | 1050 | København K | 55.6805 | 12.5857
Sankt Annæ Plads | 10 | 1250 | København K | 55.6822 | 12.5930
Gammel Mønt | 4 | 1117 | København K | 55.6812 | 12.5800
Nørre Voldgade | 10 | 1358 | København K | 55.6830 | 12.5690
Lille Kongensgade | 10 | 1074 | København K | 55.6795 | 12.5830
Blågårdsgade | 5 | 2200 | København N | 55.6880 | 12.5560
Fælledvej | 10 | 2200 | København N | 55.6915 | 12.5600
Højbro Plads | 10 | 1200 | København K | 55.6787 | 12.5790
Storegade | 10 | 6200 | Aabenraa | 55.0440 | 9.4180
Algade | 20 | 9000 | Aalborg | 57.0480 | 9.9210
`,
  PT: `
Avenida 24 de Julho | 2 | 1200-480 | Lisboa | 38.7060 | -9.1460
Avenida 5 de Outubro | 120 | 1050-060 | Lisboa | 38.7400 | -9.1470
Rua 1.º de Dezembro | 80 | 1200-358 | Lisboa | 38.7140 | -9.1400
Rua 31 de Janeiro | 150 | 4000-543 | Porto | 41.1465 | -8.6075
Rua dos Fanqueiros | 50 | 1100-231 | Lisboa | 38.7110 | -9.1360
Rua das Portas de Santo Antão | 10 | 1150-264 | Lisboa | 38.7160 | -9.1410
`,
  FR: `
Avenue du 8 Mai 1945 | 3 | 69008 | Lyon | 45.7360 | 4.8700
Rue du 4 Septembre | 20 | 75002 | Paris | 48.8695 | 2.3360
Rue du Faubourg Saint-Honoré | 55 | 75008 | Paris | 48.8710 | 2.3160
Place des Vosges | 6 | 75004 | Paris | 48.8550 | 2.3660
Rue des Carmes | 12 | 13002 | Marseille | 43.3000 | 5.3720
`,
  DE: `
Platz der Republik | 1 | 11011 | Berlin | 52.5186 | 13.3762
Straße der Einheit | 20 | 14612 | Falkensee | 52.5600 | 13.0900
Platz der Deutschen Einheit | 1 | 20457 | Hamburg | 53.5413 | 9.9841
`,
  US: `
5th Avenue | 20 | 10011 | New York | 40.7337 | -73.9950 | NY
Avenue of the Americas | 1211 | 10036 | New York | 40.7590 | -73.9820 | NY
`,
  GB: `
Fleet Street | 100 | EC4Y 1DE | London | 51.5142 | -0.1080
Poultry | 1 | EC2R 8EJ | London | 51.5136 | -0.0905
The Mall | 5 | SW1Y 5AH | London | 51.5060 | -0.1310
`,
};

export interface CorpusAddress {
  street: string;
  houseNumber: string;
  postcode: string;
  city: string;
  state?: string;
  country: string;
  lat: number;
  lng: number;
  /** Where the row comes from (for the report). */
  source: string;
}

/** The hand-written rows, parsed. */
export function writtenRows(): CorpusAddress[] {
  return [...Object.entries(RAW), ...Object.entries(RAW_21)].flatMap(([country, block]) =>
    block
      .trim()
      .split('\n')
      .map((line) => {
        const [street, houseNumber, postcode, city, lat, lng, state] = line.split('|').map((s) => s.trim());
        return {
          street: street!,
          houseNumber: houseNumber!,
          postcode: postcode!,
          city: city!,
          ...(state ? { state } : {}),
          country,
          lat: Number(lat),
          lng: Number(lng),
          source: 'written',
        };
      }),
  );
}
