#!/bin/sh
printf 'Name? '
read -r name
printf 'Color? '
read -r color
echo "Hello $name, you like $color"
